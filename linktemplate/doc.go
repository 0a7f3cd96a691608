// Package linktemplate reads, writes and expands the Link-Template header
// field (RFC 9652): links whose target and anchor are URI Templates (RFC
// 6570), sent as a Structured Field (RFC 9651):
//
//	Link-Template: "/widgets/{widget_id}"; rel="item"; var-base="https://example.org/vars/"
//
// [Parse] and [ParseHeader] read a field into [Template] values, [Format]
// writes them, [Template.Expand] expands one with the values of its
// variables into a [weblink.Link], and [Template.Variables] names those
// variables, resolved against var-base (RFC 9652 §2.1).
//
// Structured Fields are parsed and serialised by github.com/dunglas/httpsfv,
// which also handles the Display Strings of RFC 9651 §3.3.8 (%"..."). The
// URI Template expander is this package's own (RFC 6570 §3, every level up
// to 4; docs/templates.md says which suites it passes).
//
// # Fields (RFC 9652 §2, RFC 9651)
//
//  1. [Parse] reads a field value as a Structured Field List (RFC 9651
//     §4.2.1); [ParseHeader] joins every Link-Template field line with ", "
//     first (RFC 9651 §4.2: lines are combined before parsing). A field
//     value that is empty or only spaces, and a header without the field,
//     give nil and no error.
//  2. A field is ignored whole (no templates, a [*SyntaxError] saying where)
//     when it fails RFC 9651 parsing, when a member is not a String (an
//     Inner List, a Token, a Display String: the template must be a String,
//     RFC 9652 §2), when a rel, anchor or var-base parameter is not a
//     String, or when another parameter, a target attribute, is neither a
//     String nor a Display String holding non-ASCII text (RFC 9652 §2: they
//     MUST be Strings, and Display Strings only when not ASCII): a Boolean
//     such as a bare crossorigin, an Integer, a Decimal, a Byte Sequence, a
//     Token such as type=text/html, a Date, or a Display String of ASCII.
//     RFC 9651 §2.2 says that a field breaking such a field-specific
//     constraint is ignored, and RFC 9652 makes no exception. The Offset is
//     the byte offset in the field value (the lines joined by ", "): where
//     the parser stopped, where a Display String whose bytes are not UTF-8
//     starts, where the member at fault starts, or, for a parameter, where
//     the name of its last occurrence (the one that counts, rule 3) starts;
//     the message names the parameter. There is no lenient mode that
//     would keep such values as text: a Boolean, a Byte Sequence or a Date
//     has no text a sender meant, so any reading would be a guess, and a
//     sender that writes them is told so by the error. A program that must
//     read such a field anyway can parse it with httpsfv.UnmarshalList,
//     which keeps every value with its type.
//  3. A parameter given twice keeps its last value, in the place of the
//     first (RFC 9651 §4.2.3.2): the last rel wins, unlike in a Link field,
//     where the first does.
//  4. rel is split on spaces and lower-cased into Rel; anchor and var-base
//     go to Anchor and VarBase as written; every other parameter goes to
//     Params in order, with its key as Name and Lang "": a String as it is,
//     a Display String decoded (rule 2 refuses the other types).
//  5. [Format] writes one List member per template: the template as a
//     String, then rel (Rel joined by spaces), anchor and var-base as
//     Strings when they are not empty, then Params in order, each a String
//     when it is printable ASCII, a Display String when it holds non-ASCII
//     (RFC 9652 §2: only non-ASCII target attributes may be Display
//     Strings; controls among non-ASCII text go in it pct-encoded). It
//     refuses, with an error naming the template, what it cannot write
//     faithfully: a parameter value that is ASCII with controls (CR, LF,
//     TAB, NUL, DEL: a String cannot hold them and it may not be a Display
//     String), a template, relation type, anchor or var-base holding
//     controls or non-ASCII (they must be Strings; pct-encode non-ASCII,
//     which expands the same, rule 8), a relation type that is empty or
//     holds a space, a parameter name that
//     is not a Structured Field key (lower-case letters, digits, "_", "-",
//     ".", "*", starting with a letter or "*") or is rel, anchor or
//     var-base, a name given twice (a Structured Field keeps only the last
//     one), a Lang (Display Strings carry none), and invalid UTF-8.
//  6. Round trip: Parse(Format(ts...)) gives ts back for every ts Format
//     accepts, with Rel lower-case (and nil rather than empty) and
//     Params nil rather than empty.
//
// # URI Templates (RFC 6570)
//
//  7. A template is parsed whole before anything is expanded, and any
//     error refuses it (a [*TemplateError] with the byte offset): an
//     expression not closed, an operator RFC 6570 reserves (=  ,  !  @  |),
//     a variable name that is not varchar *( ["."] varchar ) (letters,
//     digits, "_", %XX, inner dots), a prefix length that is not 1 to 9999
//     without leading zero (so {var:10000} and {var:9999999} are errors),
//     anything else inside braces, and a "}" outside an expression.
//  8. Literal text (everything outside expressions) is copied when it is
//     allowed in a URI (unreserved, reserved, or a pct-encoded triplet) and
//     pct-encoded otherwise (RFC 6570 §3.1): café is caf%C3%A9, a space is
//     %20, %20 stays %20, and a "%" that starts no triplet is %25.
//  9. Values are pct-encoded as their UTF-8 bytes, with upper-case hex
//     digits (RFC 6570 §1.6, §3.2.1): every byte outside the unreserved set
//     for the operators "", ".", "/", ";", "?", "&"; for "+" and "#"
//     reserved characters and pct-encoded triplets already in the value are
//     kept (never encoded twice), and any other "%" is %25.
//  10. Values: a string; a number of a Go integer or floating-point type
//     (int, float64 as encoding/json decodes numbers, ...), written in
//     decimal by strconv (6, 37.76, -122.427; no exponent); []string, a
//     list; [][2]string, an associative array in the order given;
//     map[string]string, an associative array written in sorted order of
//     its names (RFC 6570 leaves the order to the implementation; use
//     [][2]string to choose it). nil, a missing variable, an empty list and
//     an empty array are undefined (RFC 6570 §2.3) and expand to nothing.
//     Any other type is an error naming the variable.
//  11. A prefix modifier counts characters, not bytes ({greek:1} of αβγ is
//     %CE%B1), and is an error on a list or associative array (RFC 6570
//     §2.4.1).
//  12. [Template.Expand] goes over a template three times: it parses the
//     whole of it (rule 7), measures the expansion, and builds it only when
//     it is at most [MaxExpansion] bytes (64 KiB) for the target and for the
//     anchor; a longer one is refused with an error wrapping [ErrTooLong].
//     Measuring stops at the first value or list member that passes the
//     cap, so the explode of a list with a million members costs what its
//     first 64 KiB cost. Each pass is linear in the template and the values
//     it reads; parsing keeps one expression at a time, so memory is the
//     expansion's own length plus the largest expression's variable list,
//     whatever the number of expressions.
//  13. [Template.Variables] lists the variable names of Template, then
//     Anchor, each once; with VarBase set each name is resolved against it
//     as a relative reference (RFC 9652 §2.1, RFC 3986 §5.2). A relative
//     VarBase gives relative names, which resolve against the link's
//     context as VarBase and then the name would: "vars/" gives
//     "vars/id", "../v/" gives "../v/id", "?q" gives "id". Expand looks
//     variables up by their names as written, not resolved.
package linktemplate
