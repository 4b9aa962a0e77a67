package monitor

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/radiotap"
	"github.com/airq/airq/nl80211"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/radio/radiotest"
)

var qBSSID = ieee80211.MAC{0x02, 0, 0, 0, 0x02, 0}

// echoRadio answers every frame written to dev with an echo that radio
// behaviour fn makes of it (nil: no echo), like mac80211's TX-status copy:
// the echo header, then the frame as sent.
func echoRadio(t *testing.T, dev *radiotest.Device, fn func(st *radio.TxStatus, frame []byte) bool) {
	go func() {
		for range dev.Writes {
			for _, w := range dev.Written() {
				hl, _, err := radiotap.Parse(w, nil, nil)
				if err != nil {
					t.Errorf("qualify wrote a bad radiotap header: %v", err)
					return
				}
				frame := append([]byte(nil), w[hl:]...)
				st := radio.TxStatus{Acked: false, Retries: 1, Rate: radio.LegacyRate(6000)}
				if fn(&st, frame) {
					// Some other radio's echo first: it must be ignored.
					dev.Inject(radiotap.AppendEcho(nil, radio.TxStatus{Acked: true}))
					dev.Inject(append(radiotap.AppendEcho(nil, st), frame...))
				}
			}
		}
	}()
}

type fakeTuner struct {
	calls []int
	err   error
}

func (f *fakeTuner) SetChannel(_ int, ch nl80211.Channel) error {
	f.calls = append(f.calls, ch.Freq)
	return f.err
}

func qualify(t *testing.T, active bool, tuner *fakeTuner, fn func(*radio.TxStatus, []byte) bool) Report {
	t.Helper()
	dev := radiotest.New()
	defer dev.Close()
	echoRadio(t, dev, fn)
	cfg := checkConfig{
		PHY:         nl80211.PHY{Name: "phy0", ActiveMonitor: active},
		BSSID:       qBSSID,
		Channel:     nl80211.Channel{Freq: 2412},
		EchoTimeout: 200 * time.Millisecond,
	}
	if tuner != nil {
		cfg.Retune = nl80211.Channel{Freq: 2437}
	} else {
		tuner = &fakeTuner{}
	}
	r := runChecks(context.Background(), dev, tuner, cfg)
	for _, c := range r.Checks {
		t.Log(c)
	}
	return r
}

func check(t *testing.T, r Report, name string) Check {
	t.Helper()
	for _, c := range r.Checks {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no %q check in %+v", name, r.Checks)
	return Check{}
}

func TestQualifyPass(t *testing.T) {
	tuner := &fakeTuner{}
	r := qualify(t, true, tuner, func(*radio.TxStatus, []byte) bool { return true })
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	for _, c := range r.Checks {
		if !c.OK {
			t.Errorf("check not ok: %v", c)
		}
	}
	if len(r.Checks) != 6 || r.Retune <= 0 || len(tuner.calls) != 2 || tuner.calls[0] != 2437 || tuner.calls[1] != 2412 {
		t.Errorf("report %+v, tuner calls %v", r, tuner.calls)
	}
	if s := check(t, r, "sequence").String(); !strings.HasPrefix(s, "ok") {
		t.Errorf("line = %q", s)
	}
}

func TestQualifyNoActiveMonitor(t *testing.T) {
	r := qualify(t, false, nil, func(*radio.TxStatus, []byte) bool { return true })
	if c := check(t, r, "active monitor"); c.OK || !c.Fatal || r.Err() == nil {
		t.Errorf("check %+v, err %v", c, r.Err())
	}
}

func TestQualifyNoEcho(t *testing.T) {
	r := qualify(t, true, nil, func(*radio.TxStatus, []byte) bool { return false })
	c := check(t, r, "TX echoes")
	if c.OK || !c.Fatal || !strings.Contains(r.Err().Error(), "no TX-status echo") {
		t.Errorf("check %+v, err %v", c, r.Err())
	}
}

func TestQualifyAckMeaningless(t *testing.T) {
	r := qualify(t, true, nil, func(st *radio.TxStatus, _ []byte) bool { st.Acked = true; return true })
	if c := check(t, r, "ACK status"); c.OK || c.Fatal {
		t.Errorf("check %+v: want a warning", c)
	}
	if r.Err() != nil {
		t.Errorf("a meaningless ACK status stopped start-up: %v", r.Err())
	}
}

func TestQualifySequenceRewritten(t *testing.T) {
	r := qualify(t, true, nil, func(_ *radio.TxStatus, f []byte) bool {
		f[22], f[23] = 0x10, 0 // firmware stamps its own sequence number 1
		return true
	})
	c := check(t, r, "sequence")
	if c.OK || !c.Fatal || !strings.Contains(c.Detail, "echo says 1") {
		t.Errorf("check %+v", c)
	}
}

func TestQualifyRateIgnored(t *testing.T) {
	r := qualify(t, true, nil, func(st *radio.TxStatus, _ []byte) bool { st.Rate = radio.LegacyRate(1000); return true })
	c := check(t, r, "radiotap rate")
	if c.OK || c.Fatal || !strings.Contains(c.Detail, "1000 kbit/s") {
		t.Errorf("check %+v", c)
	}
}

func TestQualifyRetuneFails(t *testing.T) {
	r := qualify(t, true, &fakeTuner{err: errors.New("nl80211: set channel: device or resource busy")},
		func(*radio.TxStatus, []byte) bool { return true })
	// The first switch failed: the radio is still on its channel.
	if c := check(t, r, "retune"); c.OK || c.Fatal || !strings.Contains(c.Detail, "busy") {
		t.Errorf("check %+v", c)
	}
}

func TestQualifyFrame(t *testing.T) {
	b := probeResponse(qBSSID, absentAddr(qBSSID))
	hl, _, err := radiotap.Parse(b, nil, nil) // an injection header has TX_FLAGS too
	if err != nil {
		t.Fatal(err)
	}
	f, err := ieee80211.ParseFrame(b[hl:])
	if err != nil || !f.Is(ieee80211.TypeMgmt, ieee80211.SubtypeProbeResp) || f.Seq() != qualifySeq ||
		f.Addr1().IsMulticast() || f.Addr1() == qBSSID || f.Addr2() != qBSSID {
		t.Errorf("frame %x: %v", b[hl:], err)
	}
}

// TestQualifyLargeFrames: with an A-MSDU size configured, a frame that long
// must go out and echo; a radio that drops long frames fails the check.
func TestQualifyLargeFrames(t *testing.T) {
	for _, c := range []struct {
		maxLen int
		ok     bool
	}{{20000, true}, {2000, false}} {
		dev := radiotest.New()
		echoRadio(t, dev, func(_ *radio.TxStatus, frame []byte) bool { return len(frame) <= c.maxLen })
		r := runChecks(context.Background(), dev, &fakeTuner{}, checkConfig{
			PHY: nl80211.PHY{Name: "phy0", ActiveMonitor: true}, BSSID: qBSSID,
			Channel: nl80211.Channel{Freq: 2412}, EchoTimeout: 200 * time.Millisecond, FrameSize: 7935,
		})
		dev.Close()
		got := check(t, r, "large frames")
		if got.OK != c.ok || (!c.ok && (!got.Fatal || !strings.Contains(got.Detail, "-amsdu"))) {
			t.Errorf("radio taking %d octets: %v", c.maxLen, got)
		}
		// With the default A-MSDU size rather than one asked for, a radio
		// that cannot send it runs without A-MSDUs instead of not at all.
		if off := r.largeOptional(); off == c.ok || r.Err() != nil {
			t.Errorf("radio taking %d octets, default size: A-MSDUs off %v, %v", c.maxLen, off, r.Err())
		}
	}
}
