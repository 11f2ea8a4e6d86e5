package natsqueue

import (
	"context"
	"net"
	"testing"
	"time"
)

// TestConnectWaitsThroughResets: a worker that reaches its coordinator's
// port while something there resets the connection (the coordinator's
// own check that the port is free listens on it for a moment) waits for
// the server, as it does when nothing listens. Before, a reset at the
// connect ended the worker at once, and a test run lost its only worker.
func TestConnectWaitsThroughResets(t *testing.T) {
	for _, tc := range []struct {
		name string
		hold time.Duration // how long the listener keeps a connection before resetting it
	}{
		{"reset as it is made", 0},
		{"reset before the server speaks", 200 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			addr := l.Addr().String()
			reset := make(chan struct{})
			go func() {
				defer close(reset)
				c, err := l.Accept()
				l.Close()
				if err != nil {
					return
				}
				time.Sleep(tc.hold)
				_ = c.(*net.TCPConn).SetLinger(0) // close with a reset
				c.Close()
			}()
			type result struct {
				err error
			}
			done := make(chan result, 1)
			waited := false
			go func() {
				nc, err := Connect(context.Background(), "nats://"+addr, ConnectOptions{Name: "test", Token: "s3cret", Wait: 30 * time.Second,
					Waiting: func() { waited = true }})
				if err == nil {
					nc.Close()
				}
				done <- result{err}
			}()
			select {
			case <-reset:
			case r := <-done:
				t.Fatalf("Connect returned before the reset: %v", r.err)
			case <-time.After(waveLimit):
				t.Fatalf("Connect did not dial the port within %v", waveLimit)
			}
			srv, err := Serve(ServerOptions{Addr: addr, StoreDir: t.TempDir(), Token: "s3cret"})
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			select {
			case r := <-done:
				if r.err != nil {
					t.Fatalf("a reset connection, then the server: %v, want a connection", r.err)
				}
			case <-time.After(waveLimit): // past Connect's own 30 s of waiting
				t.Fatalf("Connect did not return within %v", waveLimit)
			}
			if !waited {
				t.Error("Connect did not say it waits")
			}
		})
	}
}
