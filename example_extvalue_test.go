package weblink_test

import (
	"errors"
	"fmt"

	"github.com/weblinking/weblink"
)

func ExampleParseExtValue() {
	// The title* of RFC 8288 §3.5's fourth example.
	v, err := weblink.ParseExtValue("UTF-8'de'n%c3%a4chstes%20Kapitel")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s %s %q\n", v.Charset, v.Lang, v.Value)

	// RFC 5987's ISO-8859-1 example decodes to UTF-8 text.
	v, _ = weblink.ParseExtValue("iso-8859-1'en'%A3%20rates")
	fmt.Printf("%s %s %q\n", v.Charset, v.Lang, v.Value)

	// A charset weblink does not know is never guessed.
	_, err = weblink.ParseExtValue("GB2312''%C6%F3")
	fmt.Println(errors.Is(err, weblink.ErrCharset))

	// Other problems are syntax errors at an offset.
	_, err = weblink.ParseExtValue("UTF-8''foo%")
	fmt.Println(err)
	// Output:
	// UTF-8 de "nächstes Kapitel"
	// iso-8859-1 en "£ rates"
	// true
	// weblink: syntax error at offset 10: invalid percent-escape "%" in ext-value
}

func ExampleExtValue_String() {
	v := weblink.ExtValue{Lang: "en", Value: "£ and € rates"}
	fmt.Println(v)

	// String always writes UTF-8, whatever the charset was.
	v = weblink.ExtValue{Charset: "ISO-8859-1", Value: "döner.pdf"}
	fmt.Println(v.String())
	// Output:
	// UTF-8'en'%C2%A3%20and%20%E2%82%AC%20rates
	// UTF-8''d%C3%B6ner.pdf
}
