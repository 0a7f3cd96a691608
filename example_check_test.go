package weblink_test

import (
	"fmt"

	"github.com/weblinking/weblink"
)

func ExampleCheck() {
	field := `</style.css>; rel=preload; as=style, </font.woff2>; rel=preload; as=font, </next>; rel=next; type=text/html,`
	for _, p := range weblink.Check(field) {
		kind := "error"
		if p.Warning {
			kind = "warning"
		}
		fmt.Printf("%d %s: %s\n", p.Offset, kind, p.Msg)
	}
	// Output:
	// 37 warning: preload as=font without crossorigin: the font request is made in CORS mode, so it does not use the preload and downloads the resource twice; add "; crossorigin"
	// 102 error: the unquoted value of "type" holds "/", which only a quoted-string may: write type="text/html" (RFC 8288 §3: a value is a token or a quoted-string)
	// 107 error: a trailing comma makes an empty list element: remove it (RFC 9110 §5.6.1.1: a sender must not generate empty list elements)
}
