// The default renderer: a table of the links, one row a link.

package main

import (
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/linktemplate"
)

// ANSI escape sequences for the table on a terminal.
const (
	bold   = "\x1b[1m"
	yellow = "\x1b[33m"
	red    = "\x1b[31m"
	reset  = "\x1b[0m"
)

// maxColumn is the widest a table column is padded to; a longer cell
// overflows into the next column rather than making every row that wide.
const maxColumn = 60

// cell is one table cell: its text, and the same with colours.
type cell struct {
	text, styled string
}

// table is the renderer of the default mode: a table of the links of each
// page as it arrives, one row per link.
type table struct {
	bySource     bool // -discover: a first column SOURCE says where each link came from
	unregistered bool // some relation type was marked "?"
}

// page prints the links of p as a table.
func (t *table) page(c *command, p *pageLinks) error {
	if t.bySource {
		t.sourceTable(c, p.links, p.sources)
	} else {
		t.linkTable(c, p.url, p.links, p.hints, p.templates, p.hintTemplates)
	}
	return nil
}

// end explains the "?" mark when a row has one.
func (t *table) end(c *command) int {
	if c.links == 0 && c.tmpls == 0 {
		return c.readable(c.noLinks())
	}
	if t.unregistered {
		c.out.WriteString("? unregistered relation type\n")
	}
	return c.readable(exitOK)
}

// linkTable prints links as a table: relation types, target, title and
// other attributes. A column that is empty in every row is left out.
// pageURL, when set, is printed above the table with -all. When the first
// hints links are from 103 Early Hints heads, a first column FROM tells
// them ("103") from those of the final response ("final"). The templated
// links of Link-Template fields follow, marked "template" in that column,
// their URI Templates as sent: a template is never expanded; the first
// hintTemplates, from 103 Early Hints heads, are marked "103 template".
func (t *table) linkTable(c *command, pageURL string, links weblink.Links, hints int, templates []linktemplate.Template, hintTemplates int) {
	if pageURL != "" && c.opts.all {
		if c.pages > 1 {
			c.out.WriteByte('\n')
		}
		c.out.WriteString(c.style(bold, "page "+strconv.Itoa(c.pages)+": "+clean(pageURL)) + "\n")
	}
	if len(links) == 0 && len(templates) == 0 {
		if c.opts.all {
			c.out.WriteString("(no links)\n")
		}
		return
	}
	rows := [][]cell{{c.header("FROM"), c.header("REL"), c.header("TARGET"), c.header("TITLE"), c.header("ATTRIBUTES")}}
	for i, l := range links {
		from := cell{}
		if hints > 0 {
			from = cell{"final", "final"}
			if i < hints {
				from = cell{"103", c.style(yellow, "103")}
			}
		}
		rows = append(rows, []cell{from, t.relCell(c, l), plain(l.Target), cut(title(l)), plain(attributes(l))})
	}
	for i, tm := range templates {
		from := "template"
		if i < hintTemplates {
			from = "103 template"
		}
		l := templateLink(tm)
		rows = append(rows, []cell{{from, c.style(yellow, from)}, t.relCell(c, l), plain(tm.Template), cut(title(l)), plain(attributes(l))})
	}
	var widths [5]int // 0 for a column left out
	for _, row := range rows {
		for i, cl := range row {
			widths[i] = max(widths[i], min(textWidth(cl.text), maxColumn))
		}
	}
	for _, i := range [...]int{0, 3, 4} {
		if !hasText(rows[1:], i) {
			widths[i] = 0 // no hints, or a title or attributes column with nothing in it
		}
	}
	var b strings.Builder
	for _, row := range rows {
		b.Reset()
		pad := 0 // spaces owed before the next non-empty cell
		for i, cl := range row {
			if widths[i] == 0 {
				continue
			}
			w := textWidth(cl.text)
			if w > 0 {
				b.WriteString(strings.Repeat(" ", pad))
				b.WriteString(cl.styled)
				pad = 0
			}
			pad += max(widths[i]-w, 0) + 2
		}
		c.out.WriteString(b.String())
		c.out.WriteByte('\n')
	}
}

// templateLink returns tm as a link for the table's columns: the template
// as Target, title in Title, var-base first among the Params.
func templateLink(tm linktemplate.Template) weblink.Link {
	l := weblink.Link{Target: tm.Template, Rel: tm.Rel, Anchor: tm.Anchor}
	if tm.VarBase != "" {
		l.Params = append(l.Params, weblink.Param{Name: "var-base", Value: tm.VarBase})
	}
	for _, p := range tm.Params {
		if p.Name == "title" {
			l.Title = p.Value
			continue
		}
		l.Params = append(l.Params, p)
	}
	return l
}

// hasText reports whether some row has text in column i.
func hasText(rows [][]cell, i int) bool {
	for _, row := range rows {
		if row[i].text != "" {
			return true
		}
	}
	return false
}

// style wraps s in an ANSI colour when colours are on.
func (c *command) style(colour, s string) string {
	if !c.colour {
		return s
	}
	return colour + s + reset
}

// header returns a column heading.
func (c *command) header(s string) cell {
	return cell{s, c.style(bold, s)}
}

// plain returns a cell without colour for the printable form of s, a
// target or the attributes, without the userinfo of the URLs in it.
func plain(s string) cell {
	s = clean(redactUserinfo(s))
	return cell{s, s}
}

// cut returns a cell for the printable form of s, truncated to maxColumn
// columns: a title, which can be read in part (a target is shown whole, to
// be copied, and the attributes, in the last column, overflow nothing).
func cut(s string) cell {
	s = truncate(clean(s), maxColumn)
	return cell{s, s}
}

// relCell returns the relation types of l, each one that is neither
// registered nor a URI marked with "?".
func (t *table) relCell(c *command, l weblink.Link) cell {
	if len(l.Rel) == 0 {
		return cell{"-", "-"}
	}
	unreg := l.Unregistered()
	var text, styled []string
	for _, r := range l.Rel {
		shown := clean(r)
		if len(unreg) > 0 && unreg[0] == r {
			unreg = unreg[1:]
			t.unregistered = true
			text = append(text, shown+"?")
			styled = append(styled, c.style(yellow, shown+"?"))
			continue
		}
		text = append(text, shown)
		styled = append(styled, shown)
	}
	return cell{strings.Join(text, " "), strings.Join(styled, " ")}
}

// title returns the title of l with its language, if any.
func title(l weblink.Link) string {
	if l.TitleLang != "" {
		return l.Title + " (" + l.TitleLang + ")"
	}
	return l.Title
}

// attributes returns the target attributes of l other than its relation
// types and title, as name=value pairs.
func attributes(l weblink.Link) string {
	var attrs []string
	add := func(name, value, lang string) {
		a := name
		if value != "" {
			a += "=" + quoteIfNeeded(value)
		}
		if lang != "" {
			a += " (" + lang + ")"
		}
		attrs = append(attrs, a)
	}
	if l.Anchor != "" {
		add("anchor", l.Anchor, "")
	}
	if len(l.Rev) > 0 {
		add("rev", strings.Join(l.Rev, " "), "")
	}
	for _, h := range l.Hreflang {
		add("hreflang", h, "")
	}
	if l.Media != "" {
		add("media", l.Media, "")
	}
	if l.Type != "" {
		add("type", l.Type, "")
	}
	for _, p := range l.Params {
		add(p.Name, p.Value, p.Lang)
	}
	return strings.Join(attrs, " ")
}

// quoteIfNeeded quotes a value that holds a space or a quote, so that the
// attributes of a row stay apart.
func quoteIfNeeded(s string) string {
	if strings.ContainsAny(s, " \t\"") {
		return strconv.Quote(s)
	}
	return s
}

// sourceTable prints links as a table whose first column says where each
// came from; the title and attributes columns are left out when empty.
func (t *table) sourceTable(c *command, links weblink.Links, sources []string) {
	if len(links) == 0 {
		return
	}
	rows := [][]string{{"SOURCE", "REL", "TARGET", "TITLE", "ATTRIBUTES"}}
	var used [5]bool
	for i, l := range links {
		src := "?"
		if i < len(sources) {
			src = sources[i]
		}
		row := []string{src, t.relCell(c, l).text, plain(l.Target).text, clean(title(l)), plain(attributes(l)).text}
		for j, cl := range row {
			used[j] = used[j] || cl != ""
		}
		rows = append(rows, row)
	}
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	for _, row := range rows {
		var kept []string
		for j, cl := range row {
			if used[j] {
				kept = append(kept, cl)
			}
		}
		tw.Write([]byte(strings.Join(kept, "\t") + "\n"))
	}
	tw.Flush()
	for _, line := range strings.SplitAfter(b.String(), "\n") {
		if line != "" {
			c.out.WriteString(strings.TrimRight(line, " \n") + "\n") // no padding after the last cell
		}
	}
}
