package monitor

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/radiotap"
	"github.com/airq/airq/nl80211"
	"github.com/airq/airq/radio"
)

// Hardware qualification: before airq beacons, it checks on the real radio
// what the design relies on and reports each check on one line. A probe
// response is injected to an address nobody has, with a sequence number and
// a rate airq chose, and its TX-status echo is awaited: it must come back,
// say "not acknowledged", carry our sequence number and (ideally) our rate.
// Then the channel is switched away and back to time a retune.

// tuner sets a monitor's channel; *nl80211.Conn is one.
type tuner interface {
	SetChannel(ifindex int, ch nl80211.Channel) error
}

// checkConfig describes what to qualify.
type checkConfig struct {
	PHY     nl80211.PHY
	Ifindex int             // the monitor interface, tuned to Channel
	BSSID   ieee80211.MAC   // our address: the probe response's transmitter
	Channel nl80211.Channel // the operating channel
	// Retune is another channel the radio may use; the retune time is
	// measured by switching to it and back. Zero Freq skips the check.
	Retune nl80211.Channel
	// EchoTimeout bounds the wait for the echo (defaultEchoTimeout if 0).
	EchoTimeout time.Duration
	// FrameSize, when set, is the largest 802.11 frame airq will send (an
	// A-MSDU): a frame that long must go out and echo.
	FrameSize int
}

// defaultEchoTimeout is how long the checks wait for a TX-status echo: hwsim
// under emulation echoes within 31 ms, real drivers within a few ms.
const defaultEchoTimeout = 500 * time.Millisecond

// Check is the outcome of one qualification check.
type Check struct {
	Name   string
	OK     bool
	Fatal  bool // failed and airq cannot run this way
	Detail string
}

func (c Check) String() string {
	status := "ok"
	switch {
	case !c.OK && c.Fatal:
		status = "FAIL"
	case !c.OK:
		status = "warn"
	}
	return fmt.Sprintf("%-4s %-14s %s", status, c.Name, c.Detail)
}

// Report is the outcome of the hardware qualification.
type Report struct {
	Checks []Check
	Retune time.Duration // the longer of the two switches; 0 when not measured
}

// ErrQualification is what Report.Err wraps: the radio failed a check airq
// cannot run without.
var ErrQualification = errors.New("hardware qualification failed")

// Err returns an error naming the fatal failures, or nil.
func (r Report) Err() error {
	var bad []string
	for _, c := range r.Checks {
		if !c.OK && c.Fatal {
			bad = append(bad, c.Name+": "+c.Detail)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	return fmt.Errorf("%w: %s", ErrQualification, strings.Join(bad, "; "))
}

// largeOptional turns a failed "large frames" check into a warning, for
// A-MSDUs of the default size rather than one the user asked for: the
// radio then runs without A-MSDUs. It reports whether it did.
func (r *Report) largeOptional() bool {
	for i := range r.Checks {
		if c := &r.Checks[i]; c.Name == largeCheck && !c.OK && c.Fatal {
			c.Fatal = false
			c.Detail += "; A-MSDUs off (amsdu= chooses a size)"
			return true
		}
	}
	return false
}

// Qualification constants: the probe frame's sequence number and rate.
const (
	qualifySeq  = 0x5a5
	qualifyRate = 12 // 6 Mbit/s in 500 kbit/s units: valid on 2.4 and 5 GHz
)

// runChecks runs the checks on dev, a device on the monitor interface opened
// for qualification alone: runChecks reads from it, and a read may still be
// pending when it returns, so the caller closes dev afterwards.
func runChecks(ctx context.Context, dev radio.Device, tu tuner, cfg checkConfig) Report {
	var r Report
	add := func(c Check) { r.Checks = append(r.Checks, c) }
	if !cfg.PHY.ActiveMonitor {
		add(Check{Name: "active monitor", Fatal: true,
			Detail: cfg.PHY.Name + " does not advertise active monitor: the hardware would not ACK stations' frames"})
		return r
	}
	add(Check{Name: "active monitor", OK: true, Detail: "advertised by " + cfg.PHY.Name})

	timeout := cfg.EchoTimeout
	if timeout <= 0 {
		timeout = defaultEchoTimeout
	}
	echoes := make(chan echo, 16)
	done := make(chan struct{})
	defer close(done)
	go readEchoes(dev, echoes, done)

	absent := absentAddr(cfg.BSSID)
	frame := probeResponse(cfg.BSSID, absent)
	start := time.Now()
	if _, err := dev.WriteBatch([][]byte{frame}); err != nil {
		add(Check{Name: "injection", Fatal: true, Detail: err.Error()})
		return r
	}
	e, ok := awaitEcho(ctx, echoes, cfg.BSSID, absent, timeout)
	if !ok {
		add(Check{Name: "TX echoes", Fatal: true, Detail: fmt.Sprintf(
			"no TX-status echo within %v: the driver does not report status for injected frames (or the kernel lost it: 6.14.0-6.14.8), or the channel forbids injection", timeout)})
	} else {
		r.Checks = append(r.Checks, echoChecks(e, time.Since(start))...)
	}
	if ok && cfg.FrameSize > 0 {
		add(checkLarge(ctx, dev, echoes, cfg, absent, timeout))
	}
	if cfg.Retune.Freq != 0 {
		add(measureRetune(tu, cfg, &r.Retune))
	}
	return r
}

// largeCheck names checkLarge's check.
const largeCheck = "large frames"

// checkLarge sends a frame of cfg.FrameSize octets: the monitor's MTU and
// the driver must take what airq's largest A-MSDU will be.
func checkLarge(ctx context.Context, dev radio.Device, echoes <-chan echo, cfg checkConfig, absent ieee80211.MAC, timeout time.Duration) Check {
	frame := probeResponse(cfg.BSSID, absent)
	for n := cfg.FrameSize - (len(frame) - radiotap.TxHeaderLen(radio.TxParams{Rate: radio.LegacyRate(qualifyRate * 500), Retries: 1})); n > 0; {
		body := min(n-2, 255)
		if body < 0 {
			break
		}
		frame = ieee80211.AppendElement(frame, ieee80211.ElemVendor, make([]byte, body)...)
		n -= body + 2
	}
	fail := func(why string) Check {
		return Check{Name: largeCheck, Fatal: true, Detail: fmt.Sprintf(
			"a %d-octet frame %s: lower -amsdu (or 0 to send no A-MSDUs)", cfg.FrameSize, why)}
	}
	if _, err := dev.WriteBatch([][]byte{frame}); err != nil {
		return fail("was refused: " + err.Error())
	}
	if _, ok := awaitEcho(ctx, echoes, cfg.BSSID, absent, timeout); !ok {
		return fail(fmt.Sprintf("got no TX-status echo within %v (the driver drops frames that long)", timeout))
	}
	return Check{Name: largeCheck, OK: true, Detail: fmt.Sprintf("a %d-octet frame went out", cfg.FrameSize)}
}

// echoChecks judges an echo of the probe response.
func echoChecks(e echo, after time.Duration) []Check {
	cs := []Check{{Name: "TX echoes", OK: true, Detail: fmt.Sprintf("echo after %v", after.Round(10*time.Microsecond))}}
	if e.st.Acked {
		cs = append(cs, Check{Name: "ACK status", Detail: "a frame to an absent station was reported acknowledged: station loss is detected by timeouts only"})
	} else {
		cs = append(cs, Check{Name: "ACK status", OK: true, Detail: fmt.Sprintf("a frame to an absent station failed after %d retries", e.st.Retries)})
	}
	if e.seq != qualifySeq {
		cs = append(cs, Check{Name: "sequence", Fatal: true, Detail: fmt.Sprintf(
			"sent sequence number %d, the echo says %d: the driver or firmware renumbers injected frames, so echoes cannot be matched", qualifySeq, e.seq)})
	} else {
		cs = append(cs, Check{Name: "sequence", OK: true, Detail: "sequence numbers are preserved"})
	}
	switch {
	case e.st.Rate.Mode == radio.ModeNone:
		cs = append(cs, Check{Name: "radiotap rate", OK: true, Detail: "the echo reports no rate (cannot tell whether the radiotap rate is honoured)"})
	case e.st.Rate.Mode == radio.ModeLegacy && e.st.Rate.Legacy == qualifyRate:
		cs = append(cs, Check{Name: "radiotap rate", OK: true, Detail: "the requested 6 Mbit/s was used"})
	default:
		cs = append(cs, Check{Name: "radiotap rate", Detail: fmt.Sprintf(
			"asked for 6 Mbit/s, the echo says %d kbit/s: the driver picks rates itself; airtime accounting will be off", e.st.Rate.Kbps())})
	}
	return cs
}

// measureRetune switches to cfg.Retune and back, timing both.
func measureRetune(tu tuner, cfg checkConfig, worst *time.Duration) Check {
	t0 := time.Now()
	if err := tu.SetChannel(cfg.Ifindex, cfg.Retune); err != nil {
		return Check{Name: "retune", Detail: "switching to " + fmt.Sprint(cfg.Retune.Freq) + " MHz failed: " + err.Error()}
	}
	t1 := time.Now()
	if err := tu.SetChannel(cfg.Ifindex, cfg.Channel); err != nil {
		return Check{Name: "retune", Fatal: true, Detail: fmt.Sprintf("could not return to %d MHz: %v", cfg.Channel.Freq, err)}
	}
	away, back := t1.Sub(t0), time.Since(t1)
	*worst = max(away, back)
	return Check{Name: "retune", OK: true, Detail: fmt.Sprintf("%d→%d MHz %v, back %v",
		cfg.Channel.Freq, cfg.Retune.Freq, away.Round(time.Microsecond), back.Round(time.Microsecond))}
}

type echo struct {
	st     radio.TxStatus
	a1, a2 ieee80211.MAC
	seq    uint16
}

// readEchoes parses what dev delivers and forwards the TX-status echoes
// until dev fails (is closed) or done is closed.
func readEchoes(dev radio.Device, out chan<- echo, done <-chan struct{}) {
	bufs, sizes := [][]byte{make([]byte, radio.MaxFrame)}, []int{0}
	for {
		n, err := dev.ReadBatch(bufs, sizes)
		if err != nil {
			return
		}
		for i := range n {
			var e echo
			b := bufs[i][:sizes[i]]
			hl, isEcho, err := radiotap.Parse(b, nil, &e.st)
			if err != nil || !isEcho {
				continue
			}
			f, err := ieee80211.ParseFrame(b[hl:])
			if err != nil {
				continue
			}
			e.a1, e.a2, e.seq = f.Addr1(), f.Addr2(), f.Seq()
			select {
			case out <- e:
			case <-done:
				return
			}
		}
	}
}

func awaitEcho(ctx context.Context, echoes <-chan echo, from, to ieee80211.MAC, timeout time.Duration) (echo, bool) {
	t := time.NewTimer(timeout)
	defer t.Stop()
	for {
		select {
		case e := <-echoes:
			if e.a1 == to && e.a2 == from {
				return e, true
			}
		case <-t.C:
			return echo{}, false
		case <-ctx.Done():
			return echo{}, false
		}
	}
}

// absentAddr is a locally administered unicast address derived from ours
// that no station uses.
func absentAddr(ours ieee80211.MAC) ieee80211.MAC {
	a := ours
	a[0] = a[0]&^0x01 | 0x02
	a[5] ^= 0xa5
	return a
}

// probeResponse is the qualification frame: radiotap with the rate and one
// retry, then a minimal probe response (timestamp, interval, capability,
// empty SSID) to absent.
func probeResponse(bssid, absent ieee80211.MAC) []byte {
	b := radiotap.AppendTx(nil, radio.TxParams{Rate: radio.LegacyRate(qualifyRate * 500), Retries: 1})
	b = ieee80211.AppendMgmtHeader(b, ieee80211.SubtypeProbeResp, absent, bssid, bssid, qualifySeq)
	b = append(b, make([]byte, 8)...) // timestamp
	b = append(b, 100, 0, 0x01, 0x00) // beacon interval 100 TU, capability ESS
	return append(b, 0, 0)            // SSID element, empty
}
