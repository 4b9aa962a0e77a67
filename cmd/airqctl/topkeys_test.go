package main

import (
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// frameSignal is a stdout that reports its first write: the first frame.
type frameSignal struct {
	mu    sync.Mutex
	out   strings.Builder
	first chan struct{}
}

func (w *frameSignal) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.out.Len() == 0 {
		close(w.first)
	}
	return w.out.Write(b)
}

// runTopUntil runs top without a frame limit on the fake daemon and, once
// the first frame is out, does what ends it; it returns top's exit status
// and whether the terminal was restored.
func runTopUntil(t *testing.T, end func(keys io.Writer, stop chan<- os.Signal)) (int, bool) {
	t.Helper()
	socket := serve(t, newFakeAP())
	keys, typing := io.Pipe()
	defer typing.Close()
	stop := make(chan os.Signal, 1)
	restored := false
	out := &frameSignal{first: make(chan struct{})}
	done := make(chan int)
	go func() {
		done <- runTop(topOptions{interval: 10 * time.Millisecond}, topIO{socket: socket, stdout: out, stderr: io.Discard,
			ifname: "airq0", kb: keyboard{keys: keys, restore: func() { restored = true }}, stop: stop})
	}()
	<-out.first
	end(typing, stop)
	select {
	case code := <-done:
		return code, restored
	case <-time.After(10 * time.Second): // a bound on a hang, not a measurement
		t.Fatal("top did not stop")
		return 0, false
	}
}

func TestTopQuitsOnQ(t *testing.T) {
	code, restored := runTopUntil(t, func(keys io.Writer, _ chan<- os.Signal) {
		keys.Write([]byte("x")) // another key changes nothing
		keys.Write([]byte("q"))
	})
	if code != 0 || !restored {
		t.Errorf("q: exit %d, terminal restored %v", code, restored)
	}
}

func TestTopQuitsOnInterrupt(t *testing.T) {
	code, restored := runTopUntil(t, func(_ io.Writer, stop chan<- os.Signal) { stop <- os.Interrupt })
	if code != 0 || !restored {
		t.Errorf("Ctrl-C: exit %d, terminal restored %v", code, restored)
	}
}

func TestWatchKeys(t *testing.T) {
	for _, c := range []struct {
		in   string
		quit bool
	}{{"q", true}, {"abcQ", true}, {"\x03", true}, {"hello\n", false}, {"", false}} {
		quit := make(chan struct{})
		watchKeys(strings.NewReader(c.in), quit)
		select {
		case <-quit:
			if !c.quit {
				t.Errorf("%q quits", c.in)
			}
		default:
			if c.quit {
				t.Errorf("%q does not quit", c.in)
			}
		}
	}
}
