package redisstore

import (
	"bytes"
	"context"
	"net"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/weblinking/weblink/internal/proctest"
)

// TestMain runs the test binary as a worker of the multi-process tests
// when workerEnv is set (see worker), and as the tests otherwise.
func TestMain(m *testing.M) {
	// The killed server's dial errors are the test's to count (StoreErrors),
	// not go-redis's to log.
	redis.SetLogger(quietLogger{})
	if os.Getenv(workerEnv) != "" {
		os.Exit(worker())
	}
	os.Exit(m.Run())
}

// redisServer is a redis-server started by a test on a free loopback port,
// without persistence, and stopped when the test ends.
type redisServer struct {
	addr string
	cmd  *exec.Cmd
	out  *lockedBuffer

	once sync.Once
}

// startRedis starts a redis-server for t. Without redis-server, the test is
// skipped with the command that installs it, or fails when CI is "true"
// (.ci/run installs it).
func startRedis(t testing.TB) *redisServer {
	t.Helper()
	path, err := exec.LookPath("redis-server")
	if err != nil {
		const install = "apt-get update && apt-get install -y redis-server"
		if os.Getenv("CI") == "true" {
			t.Fatalf("redis-server is missing; .ci/run installs it (%s)", install)
		}
		t.Skipf("redis-server is missing; install it with: %s", install)
	}
	port := freePort(t)
	s := &redisServer{addr: net.JoinHostPort("127.0.0.1", port), out: new(lockedBuffer)}
	s.cmd = exec.Command(path, "--save", "", "--appendonly", "no", "--port", port,
		"--bind", "127.0.0.1", "--dir", t.TempDir())
	s.cmd.Stdout, s.cmd.Stderr = s.out, s.out
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.kill)
	c := s.client(t)
	for deadline := time.Now().Add(10 * time.Second); c.Ping(context.Background()).Err() != nil; {
		if time.Now().After(deadline) {
			t.Fatalf("redis-server on %s did not answer: %s", s.addr, s.out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	return s
}

// kill stops the server at once; it is safe to call twice.
func (s *redisServer) kill() {
	s.once.Do(func() {
		_ = s.cmd.Process.Kill()
		_ = s.cmd.Wait()
	})
}

// client returns a client of s, closed when the test ends, that fails at
// once when s is gone (no retries, one dial).
func (s *redisServer) client(t testing.TB) *redis.Client {
	c := newClient(s.addr)
	t.Cleanup(func() { c.Close() })
	return c
}

func newClient(addr string) *redis.Client {
	return redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1, DialerRetries: 1, DialTimeout: time.Second, Protocol: 2})
}

// freePort is proctest.FreePort as the string redis-server takes.
func freePort(t testing.TB) string { return strconv.Itoa(proctest.FreePort(t)) }

// lockedBuffer is a bytes.Buffer safe for concurrent use.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// quietLogger drops go-redis's log lines.
type quietLogger struct{}

func (quietLogger) Printf(context.Context, string, ...any) {}
