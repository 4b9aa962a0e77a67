package ap

import (
	"fmt"
	"testing"
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/radiotap"
)

// callLog is a driver that writes down each call of Flush's sequence.
type callLog struct {
	t     *testing.T
	now   time.Duration
	calls []string
	sync  bool // tune at once; otherwise only note the request
	// retuneTime is how long a synchronous retune takes
	retuneTime time.Duration
}

func (c *callLog) WriteRadio(frames [][]byte) (int, error) {
	for _, f := range frames {
		n, _, err := radiotap.Parse(f, nil, nil)
		if err != nil {
			c.t.Fatal(err)
		}
		fr, err := ieee80211.ParseFrame(f[n:])
		if err != nil {
			c.t.Fatal(err)
		}
		c.calls = append(c.calls, fmt.Sprintf("radio %d/%d", fr.Type(), fr.Subtype()))
	}
	return len(frames), nil
}

func (c *callLog) WriteWired(_ int, frames [][]byte) (int, error) {
	c.calls = append(c.calls, fmt.Sprintf("wired %d", len(frames)))
	return len(frames), nil
}

func (c *callLog) Retune(freq int) (time.Duration, bool) {
	c.calls = append(c.calls, fmt.Sprintf("retune %d", freq))
	if !c.sync {
		return 0, false
	}
	c.now += c.retuneTime
	return c.now, true
}

func (c *callLog) Event(e Event) { c.calls = append(c.calls, "event "+e.Kind.String()) }

func (c *callLog) count(prefix string) int {
	n := 0
	for _, s := range c.calls {
		if len(s) >= len(prefix) && s[:len(prefix)] == prefix {
			n++
		}
	}
	return n
}

// TestFlushRetunesAtOnce: with a driver that tunes before it returns, the
// Flush that brings the radio home from a trip also writes, after the
// retune, the data that waited for it; the core knows where the radio is.
func TestFlushRetunesAtOnce(t *testing.T) {
	h := newHarness(t, scanConfig())
	h.join(staMAC, false)
	h.take()
	d := &callLog{t: t, sync: true, retuneTime: time.Millisecond, now: h.now}
	step := func() {
		d.now = max(d.now, h.a.Deadline())
		h.a.Tick(d.now)
		d.calls = d.calls[:0]
		h.a.Flush(d.now, d)
	}
	for d.now < time.Second && h.a.OnFreq() == 2412 {
		step()
	}
	if h.a.OnFreq() == 2412 || d.count("retune") != 1 {
		t.Fatalf("on %d MHz after %q", h.a.OnFreq(), d.calls)
	}
	h.a.HandleWired(d.now, 0, eth(staMAC, host, 0))
	d.calls = d.calls[:0]
	h.a.Flush(d.now, d)
	if d.count("radio 2/") != 0 {
		t.Fatalf("data written away from home: %q", d.calls)
	}
	for d.now < 2*time.Second && h.a.OnFreq() != 2412 {
		step()
	}
	i := 0
	for i < len(d.calls) && d.calls[i] != "retune 2412" {
		i++
	}
	if i == len(d.calls) {
		t.Fatalf("not home after the trip: %q", d.calls)
	}
	if rest := d.calls[i+1:]; len(rest) == 0 || rest[0][:len("radio 2/")] != "radio 2/" {
		t.Errorf("after the retune home the same Flush wrote %q, want the waiting data (all: %q)", rest, d.calls)
	}
}

// TestFlushAsksOnceForARetune: a driver that tunes later is asked once per
// retune, however many Flushes pass before it calls Retuned.
func TestFlushAsksOnceForARetune(t *testing.T) {
	h := newHarness(t, scanConfig())
	d := &callLog{t: t}
	for h.now < time.Second && d.count("retune") == 0 {
		h.now = max(h.now, h.a.Deadline())
		h.a.Tick(h.now)
		h.a.Flush(h.now, d)
	}
	if d.count("retune") != 1 {
		t.Fatal("no retune asked for in a second")
	}
	for range 10 {
		h.now += time.Millisecond
		h.a.Tick(h.now)
		h.a.Flush(h.now, d)
	}
	if n := d.count("retune"); n != 1 {
		t.Fatalf("asked %d times for one retune", n)
	}
	h.a.Retuned(h.now)
	h.a.Flush(h.now, d)
	for h.now < 2*time.Second && d.count("retune") == 1 {
		h.now = max(h.now, h.a.Deadline())
		h.a.Tick(h.now)
		h.a.Flush(h.now, d)
	}
	if n := d.count("retune"); n != 2 {
		t.Errorf("%d retunes asked for after the first arrival, want the next leg", n-1)
	}
}
