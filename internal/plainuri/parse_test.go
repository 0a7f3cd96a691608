package plainuri

import (
	"net/url"
	"testing"
)

// TestParse checks that Parse keeps every %HH escape as written where
// url.Parse alone decodes it, encodes what a URI cannot hold, and leaves
// the authority and what url.Parse refuses to url.Parse.
func TestParse(t *testing.T) {
	for _, tc := range []struct{ ref, want string }{
		{"http://x/a%2fb/\u00e4", "http://x/a%2fb/%C3%A4"},
		{"http://x/a%2Fb/c", "http://x/a%2Fb/c"},
		{"a%2fb/\u00e4#f%2f\u00e4", "a%2fb/%C3%A4#f%2f%C3%A4"},
		{"/a!b/\u00e4", "/a!b/%C3%A4"},
		{"/a[b]/c d", "/a[b]/c%20d"},
		{"/\u00e4", "/%C3%A4"},
		{"?q=\u00e4", "?q=%C3%A4"},
		{"http://b\u00fccher.example/%2f\u00e4", "http://b%C3%BCcher.example/%2f%C3%A4"},
		{"http://a\"b/%2f\u00e4", "http://a\"b/%2f%C3%A4"}, // the host as net/url writes it
		{"mailto:\u00e4%2f", "mailto:\u00e4%2f"},
		{"///!00 ", "///!00%20"},
		{"##%21", "#%23%21"}, // a path for url.Parse, not an empty authority
		{"a:///!%2f ", "a:///!%2f%20"},
	} {
		u, err := Parse(tc.ref)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.ref, err)
			continue
		}
		if got := u.String(); got != tc.want {
			t.Errorf("Parse(%q).String() = %q, want %q", tc.ref, got, tc.want)
		}
	}
	for _, ref := range []string{"http://x/%zz", "%", "http://[::1"} {
		if _, err := Parse(ref); err == nil {
			t.Errorf("Parse(%q): no error, as url.Parse gives", ref)
		}
	}
}

// TestResolve checks that Resolve keeps the user information of a
// reference as written, which url.URL holds decoded and String re-escapes
// ("a%3Db" is written back "a=b", "u!" as "u%21"), with an "@" in it
// written %40.
func TestResolve(t *testing.T) {
	base, err := url.Parse("http://x/d/p")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ ref, want string }{
		{"//a%3Db%2Cc@h/x", "http://a%3Db%2Cc@h/x"},
		{"HTTPS://u!:p%2a%40@H/", "https://u!:p%2a%40@H/"},
		{"http://u:p@ss@h/", "http://u:p%40ss@h/"},
		{"//:@h", "http://:@h"},
		{"//@h/", "http://@h/"},
		{"//%41@h/%2f\u00e4?\u00e4#%2f", "http://%41@h/%2f%C3%A4?%C3%A4#%2f"},
		{"//h/a%2fb", "http://h/a%2fb"},
		{"a%2fb", "http://x/d/a%2fb"},
		{"mailto:a@b", "mailto:a@b"},
	} {
		got, err := Resolve(base, tc.ref)
		if err != nil || got != tc.want {
			t.Errorf("Resolve(%s, %q) = %q, %v; want %q", base, tc.ref, got, err, tc.want)
		}
	}
	if got, err := Resolve(base, "//a%zz@h/"); err == nil {
		t.Errorf("Resolve(%s, %q) = %q, no error, as url.Parse gives", base, "//a%zz@h/", got)
	}
}

// TestResolveUser: a reference without an authority takes the base's user
// information as written; one with an authority keeps its own.
func TestResolveUser(t *testing.T) {
	const written = "http://u%21:p!%2a@h/d/p"
	base, err := url.Parse(written)
	if err != nil {
		t.Fatal(err)
	}
	user, ok := User(written)
	if user != "u%21:p!%2a" || !ok {
		t.Fatalf("User(%q) = %q, %v", written, user, ok)
	}
	for _, tc := range []struct{ ref, want string }{
		{"a", "http://u%21:p!%2a@h/d/a"},
		{"/a%2f", "http://u%21:p!%2a@h/a%2f"},
		{"?q", "http://u%21:p!%2a@h/d/p?q"},
		{"", "http://u%21:p!%2a@h/d/p"},
		{"//h2/x", "http://h2/x"},
		{"//v%2a@h2/x", "http://v%2a@h2/x"},
		{"https:/x", "https:/x"},
		{"mailto:a@b", "mailto:a@b"},
	} {
		got, err := ResolveUser(base, user, tc.ref)
		if err != nil || got != tc.want {
			t.Errorf("ResolveUser(%s, %q, %q) = %q, %v; want %q", written, user, tc.ref, got, err, tc.want)
		}
	}
	for _, ref := range []string{"/p", "//h/p", "http:x", "//@h", "//u@h/a@b"} {
		want := map[string]string{"//@h": "", "//u@h/a@b": "u"}
		got, ok := User(ref)
		if w, has := want[ref]; got != w || ok != has {
			t.Errorf("User(%q) = %q, %v; want %q, %v", ref, got, ok, w, has)
		}
	}
}
