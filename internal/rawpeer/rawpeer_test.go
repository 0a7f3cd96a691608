package rawpeer

import (
	"bufio"
	"io"
	"net"
	"strings"
	"testing"
)

// TestServe: the answer goes out byte for byte, escape bytes included, per
// request on one connection, and depends on the request URI.
func TestServe(t *testing.T) {
	base := Serve(t, func(uri string) string {
		return "HTTP/1.1 500 \x1b[2J" + uri + "\r\nContent-Length: 0\r\n\r\n"
	})
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	r := bufio.NewReader(conn)
	for _, uri := range []string{"/a", "/b?x=1"} {
		if _, err := io.WriteString(conn, "GET "+uri+" HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
			t.Fatal(err)
		}
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if want := "HTTP/1.1 500 \x1b[2J" + uri + "\r\n"; line != want {
			t.Errorf("status line %q, want %q", line, want)
		}
		for line != "\r\n" {
			if line, err = r.ReadString('\n'); err != nil {
				t.Fatal(err)
			}
		}
	}
}
