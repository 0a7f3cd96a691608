// Package rawpeer is a test peer for the hostile-server tests of package
// weblink and the weblink command: an HTTP/1.1 server on 127.0.0.1 that
// writes its answers byte for byte, so that a test can send what net/http
// would refuse to write (escape bytes in a status line, broken heads).
package rawpeer

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"testing"
)

// Serve listens on 127.0.0.1 until t ends and answers every request on every
// connection, after reading its head and body, with answer(requestURI)
// written as it is. It returns the server's base URL, "http://host:port".
func Serve(t testing.TB, answer func(requestURI string) string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go serveConn(conn, answer)
		}
	}()
	return "http://" + ln.Addr().String()
}

// serveConn answers the requests of one connection until it breaks.
func serveConn(conn net.Conn, answer func(requestURI string) string) {
	defer conn.Close()
	r := bufio.NewReader(conn)
	for {
		req, err := http.ReadRequest(r)
		if err != nil {
			return
		}
		_, _ = io.Copy(io.Discard, req.Body)
		if _, err := io.WriteString(conn, answer(req.URL.RequestURI())); err != nil {
			return
		}
	}
}
