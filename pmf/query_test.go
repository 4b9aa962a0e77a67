package pmf

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/airq/airq/internal/ieee80211"
)

// counting is a Rand that yields 0, 1, 2, ... so transaction IDs are
// known.
type counting struct{ n byte }

func (c *counting) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = c.n
		c.n++
	}
	return len(p), nil
}

// ms converts a time in milliseconds with up to three decimals.
func ms(f float64) time.Duration { return time.Duration(f*1000+0.5) * time.Microsecond }

// run ticks q at each deadline up to end and returns the times Requests
// went out and when it timed out (-1 if not).
func run(t *testing.T, q *Query, end time.Duration) (sent []time.Duration, timedOut time.Duration) {
	t.Helper()
	timedOut = -1
	for {
		at, ok := q.Deadline()
		if !ok || at > end {
			return sent, timedOut
		}
		s := q.Tick(at)
		if s.Send {
			sent = append(sent, at)
		}
		if s.TimedOut {
			timedOut = at
		}
	}
}

// TestDefaultsTimeline: hostapd's defaults, a silent station. Five
// Requests 205.824 ms apart, a timeout at 1029.12 ms (1005 TUs > 1000),
// then the next association request goes through.
func TestDefaultsTimeline(t *testing.T) {
	q := NewQuery(Config{Rand: &counting{}})
	start := 10 * time.Second
	status, tus, s := q.Assoc(start)
	if status != ieee80211.StatusAssocRejectedTemp || tus != 1000 || !s.Send || s.ID != (TransactionID{0, 1}) || !q.Active() {
		t.Fatalf("first association request: status %d comeback %d step %+v", status, tus, s)
	}
	// Another request meanwhile: refused with what is left, plus one TU,
	// and no new procedure.
	status, tus, s = q.Assoc(start + ms(500))
	if status != 30 || tus != 1000-488+1 || s.Send || q.Requests() != 1 {
		t.Fatalf("at 500 ms: status %d comeback %d step %+v", status, tus, s)
	}
	sent, out := run(t, q, start+2*time.Second)
	want := []time.Duration{ms(205.824), ms(411.648), ms(617.472), ms(823.296)}
	if len(sent) != len(want) || out != start+ms(1029.12) || !q.TimedOut() || q.Active() {
		t.Fatalf("retries at %v, timed out at %v; want %v and 1029.12ms", sent, out-start, want)
	}
	for i := range want {
		if sent[i] != start+want[i] {
			t.Fatalf("retry %d at %v, want %v", i, sent[i]-start, want[i])
		}
	}
	if status, _, s = q.Assoc(start + ms(1100)); status != ieee80211.StatusSuccess || s.Send || s.TimedOut {
		t.Fatalf("after the timeout: status %d step %+v", status, s)
	}
	q.Reset()
	if q.TimedOut() || q.Active() {
		t.Fatal("Reset left state")
	}
	if status, _, s = q.Assoc(start + 5*time.Second); status != 30 || !s.Send {
		t.Fatalf("a new association's next request: status %d step %+v", status, s)
	}
}

// TestResponseKeepsAssociation: a Response with the ID of any Request of
// the procedure ends it; the next association request starts a new one.
func TestResponseKeepsAssociation(t *testing.T) {
	q := NewQuery(Config{Rand: &counting{}})
	_, _, first := q.Assoc(0)
	second := q.Tick(retryInterval(DefaultRetryTimeout))
	if !second.Send || second.ID == first.ID {
		t.Fatalf("retry %+v after %+v: the ID must change", second, first)
	}
	if q.Response(TransactionID{9, 9}) || !q.Active() {
		t.Fatal("an unknown ID matched")
	}
	if !q.Response(first.ID) || q.Active() || q.TimedOut() {
		t.Fatal("the first Request's ID did not end the procedure")
	}
	if _, ok := q.Deadline(); ok {
		t.Fatal("timer still armed")
	}
	if q.Response(first.ID) {
		t.Fatal("a Response with no procedure matched")
	}
	if status, tus, s := q.Assoc(ms(300)); status != 30 || tus != 1000 || !s.Send {
		t.Fatalf("next request: %d %d %+v", status, tus, s)
	}
}

// TestTimeoutAtAssoc: a timeout is noticed at an association request too
// (check_sa_query calls ap_check_sa_query_timeout), which then passes.
func TestTimeoutAtAssoc(t *testing.T) {
	q := NewQuery(Config{MaxTimeout: 100, RetryTimeout: 1000})
	q.Assoc(0)
	if status, tus, _ := q.Assoc(100 * TU); status != 30 || tus != 1 {
		t.Fatalf("at exactly 100 TUs: status %d comeback %d (not yet timed out)", status, tus)
	}
	status, _, s := q.Assoc(101 * TU)
	if status != 0 || !s.TimedOut || !q.TimedOut() {
		t.Fatalf("at 101 TUs: status %d step %+v", status, s)
	}
}

// TestRetryInterval: hostapd's conversion of TUs to its timer.
func TestRetryInterval(t *testing.T) {
	for tus, want := range map[uint32]time.Duration{
		1: 1024 * time.Microsecond, 201: ms(205.824), 999: ms(1022.976), 1000: time.Second,
		1500: time.Second + ms(512), 2000: 2 * time.Second, 5000: 5 * time.Second, // 5*1024/1000 s, truncated
	} {
		if got := retryInterval(tus); got != want {
			t.Errorf("%d TUs: %v, want %v", tus, got, want)
		}
	}
}

// TestRequestCap: after hostapd's 1000 Requests no more go out, and the
// caller is still told when the procedure times out.
func TestRequestCap(t *testing.T) {
	q := NewQuery(Config{MaxTimeout: 5000, RetryTimeout: 1, Rand: &counting{}})
	q.Assoc(0)
	sent, out := run(t, q, time.Minute)
	if len(sent)+1 != maxRequests || out != 5001*TU {
		t.Fatalf("%d Requests, timed out at %v", len(sent)+1, out)
	}
}

type failing struct{}

func (failing) Read([]byte) (int, error) { return 0, errors.New("no entropy") }

func TestRandFailure(t *testing.T) {
	q := NewQuery(Config{Rand: failing{}})
	if _, _, s := q.Assoc(0); !s.Send || s.ID != (TransactionID{0x12, 0x34}) {
		t.Fatalf("step %+v", s)
	}
}

// TestCrossCheckModel compares Query with a direct transcription of
// hostapd's functions over random event sequences.
func TestCrossCheckModel(t *testing.T) {
	for seed := uint64(1); seed <= 200; seed++ {
		crossCheck(t, seed)
	}
}

func TestZeroAllocsAfterFirst(t *testing.T) {
	q := NewQuery(Config{Rand: bytes.NewReader(make([]byte, 1<<20))})
	now := time.Duration(0)
	q.Assoc(now)
	q.Tick(now + time.Second)
	q.Reset()
	n := testing.AllocsPerRun(100, func() {
		now += 10 * time.Second
		_, _, s := q.Assoc(now)
		q.Response(s.ID)
	})
	if n != 0 {
		t.Fatalf("%v allocations per procedure", n)
	}
}
