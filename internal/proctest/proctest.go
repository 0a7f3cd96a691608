//go:build unix

// Package proctest runs the real peers of the tests (reverse proxies, web
// servers, Redis, node) as their own processes on loopback ports: started
// in a process group of their own, waited for until they listen, and
// stopped, children included, when the test ends.
package proctest

import (
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// FreePort returns a TCP port on 127.0.0.1 that was free a moment ago.
func FreePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// Run starts cmd, named name in messages, stops it (SIGTERM to its
// process group, SIGKILL after 10 s) when the test ends, and waits until
// every port of ports on 127.0.0.1 accepts connections, for at most 20 s.
// When it exits or does not listen in time, the test fails with its
// output and the contents of logFile ("" for none).
func Run(t testing.TB, name string, cmd *exec.Cmd, logFile string, ports ...int) {
	t.Helper()
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", name, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		// The process group: Apache and nginx may have children.
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-exited
		}
	})
	logged := func() string {
		if logFile == "" {
			return ""
		}
		b, _ := os.ReadFile(logFile)
		return string(b)
	}
	deadline := time.Now().Add(20 * time.Second)
	for _, port := range ports {
		addr := "127.0.0.1:" + strconv.Itoa(port)
		for {
			conn, err := net.DialTimeout("tcp", addr, time.Second)
			if err == nil {
				conn.Close()
				break
			}
			select {
			case err := <-exited:
				exited <- err
				t.Fatalf("%s exited before listening on %s: %v\n%s\n%s", name, addr, err, out.String(), logged())
			case <-time.After(50 * time.Millisecond):
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s is not listening on %s after 20 s\n%s\n%s", name, addr, out.String(), logged())
			}
		}
	}
}
