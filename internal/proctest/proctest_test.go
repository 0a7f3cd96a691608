//go:build unix

package proctest

import (
	"net"
	"os/exec"
	"strconv"
	"testing"
)

// TestFreePort: the port FreePort gives can be listened on.
func TestFreePort(t *testing.T) {
	p := FreePort(t)
	l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(p))
	if err != nil {
		t.Fatalf("FreePort gave %d, which cannot be listened on: %v", p, err)
	}
	l.Close()
}

// TestRunWaitsForPort: a process whose port is already listening (here,
// by this test) is waited for at once, and stopped at the end of the test.
func TestRunWaitsForPort(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	cmd := exec.Command("sleep", "60")
	Run(t, "sleep", cmd, "", l.Addr().(*net.TCPAddr).Port)
	if cmd.Process == nil {
		t.Fatal("not started")
	}
}
