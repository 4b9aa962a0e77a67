package pmf

import (
	"math/rand/v2"
	"testing"
	"time"
)

// model is hostapd's association SA Query transcribed function by
// function (sta_info.c ap_sa_query_timer, ap_check_sa_query_timeout;
// ieee802_11.c check_sa_query; ieee802_11_shared.c
// hostapd_eid_assoc_comeback_time and the Response half of
// ieee802_11_sa_query_action), one eloop timer, os_reltime in µs.
type model struct {
	maxTO, retryTO uint32
	rnd            counting
	start          int64 // µs
	ids            []TransactionID
	timedOut       bool
	timer          int64 // µs; -1 when not registered
}

func us(d time.Duration) int64 { return d.Microseconds() }

func (m *model) passedTU(now int64) uint32 { return uint32((now - m.start) / 1024) }

func (m *model) checkTimeout(now int64) bool {
	if m.maxTO < m.passedTU(now) {
		m.timedOut, m.ids, m.timer = true, nil, -1
		return true
	}
	return false
}

func (m *model) timerFired(now int64) (sent *TransactionID, timedOut bool) {
	m.timer = -1
	if len(m.ids) > 0 && m.checkTimeout(now) {
		return nil, true
	}
	if len(m.ids) >= 1000 {
		return nil, false
	}
	if len(m.ids) == 0 {
		m.start = now
	}
	var id TransactionID
	m.rnd.Read(id[:])
	m.ids = append(m.ids, id)
	sec := int64((m.retryTO/1000)*1024) / 1000
	usec := int64(m.retryTO%1000) * 1024
	m.timer = now + sec*1e6 + usec
	return &id, false
}

func (m *model) assoc(now int64) (status uint16, comeback uint32, sent *TransactionID, timedOut bool) {
	if !m.timedOut && len(m.ids) > 0 {
		timedOut = m.checkTimeout(now)
	}
	if m.timedOut {
		return 0, 0, nil, timedOut
	}
	if len(m.ids) == 0 {
		sent, _ = m.timerFired(now)
	}
	tu := m.passedTU(now)
	var t uint32
	if m.maxTO > tu {
		t = m.maxTO - tu
	}
	if t < m.maxTO {
		t++
	}
	return 30, t, sent, timedOut
}

func (m *model) response(id TransactionID) bool {
	for _, s := range m.ids {
		if s == id {
			m.ids, m.timer = nil, -1
			return true
		}
	}
	return false
}

func stepOf(sent *TransactionID, timedOut bool) Step {
	if sent == nil {
		return Step{TimedOut: timedOut}
	}
	return Step{Send: true, ID: *sent, TimedOut: timedOut}
}

// crossCheck drives Query and the model with the same random events: the
// timer at its deadline, association requests and Responses (matching or
// not) in between, and compares every output.
func crossCheck(t *testing.T, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 7))
	retry := 1 + uint32(r.IntN(400))
	maxTO := 1 + uint32(r.IntN(int(min(3000, 998*retry))))
	q := NewQuery(Config{MaxTimeout: maxTO, RetryTimeout: retry, Rand: &counting{}})
	m := &model{maxTO: maxTO, retryTO: retry, timer: -1}
	now := time.Duration(r.IntN(1e9))
	for ev := 0; ev < 300; ev++ {
		at, armed := q.Deadline()
		if armed != (m.timer >= 0) || armed && us(at) != m.timer {
			t.Fatalf("seed %d event %d: deadline %v %v, model %d µs", seed, ev, at, armed, m.timer)
		}
		switch gap := time.Duration(r.IntN(400)) * time.Millisecond; {
		case armed && now+gap >= at && r.IntN(3) > 0:
			now = at
			got, want := q.Tick(now), stepOf(m.timerFired(us(now)))
			if got != want {
				t.Fatalf("seed %d: Tick at %v: %+v, model %+v", seed, now, got, want)
			}
		case r.IntN(2) == 0:
			if armed && now+gap > at {
				gap = at - now
			}
			now += gap
			st, cb, s := q.Assoc(now)
			mst, mcb, msent, mto := m.assoc(us(now))
			if st != mst || cb != mcb || s != stepOf(msent, mto) {
				t.Fatalf("seed %d: Assoc at %v: %d %d %+v, model %d %d %+v", seed, now, st, cb, s, mst, mcb, stepOf(msent, mto))
			}
			if st == 0 {
				q.Reset()
				m.timedOut, m.ids, m.timer = false, nil, -1
			}
		default:
			id := TransactionID{byte(r.IntN(256)), byte(r.IntN(256))}
			if len(m.ids) > 0 && r.IntN(2) == 0 {
				id = m.ids[r.IntN(len(m.ids))]
			}
			if got, want := q.Response(id), m.response(id); got != want {
				t.Fatalf("seed %d: Response %x: %v, model %v", seed, id, got, want)
			}
		}
	}
}
