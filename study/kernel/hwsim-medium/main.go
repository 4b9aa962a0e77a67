// Command hwsim-medium is a medium for mac80211_hwsim in place of
// wmediumd, for the closed-round study (docs/closed-rounds.md, "The real
// kernel"): it registers on hwsim's netlink family, so every frame a radio
// transmits stays pending in the driver until the medium returns its TX
// status, and it decides when that is with airq's airtime model
// (package study/kernel/medium over aql's estimator).
//
//	hwsim-medium -radio 02:00:00:00:00:00 -radio 02:00:00:00:01:00
//
// It prints "registered" once the driver sends through it, then on
// SIGUSR1 a "STATS ..." line of the counters since the previous one, and
// the same at SIGTERM before it exits (the driver falls back to its own
// medium when the socket closes).
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/study/kernel/hwsimnl"
	"github.com/airq/airq/study/kernel/medium"
)

type macList []ieee80211.MAC

func (l *macList) String() string { return fmt.Sprint(*l) }
func (l *macList) Set(s string) error {
	m, err := ieee80211.ParseMAC(s)
	if err != nil {
		return fmt.Errorf("-radio %q: want a MAC address (a radio's /sys/class/ieee80211/phyN/macaddress): %w", s, err)
	}
	*l = append(*l, m)
	return nil
}

func main() {
	var radios macList
	flag.Var(&radios, "radio", "a radio's permanent address (repeat); its hwsim hardware address has bit 0x40 of the first octet set")
	nss := flag.Int("max-nss", 1, "spatial streams the link carries")
	mcs := flag.Int("max-mcs", 3, "per-stream HT/VHT MCS the link carries")
	legacy := flag.Int("max-legacy-kbps", 24000, "fastest legacy rate the link carries")
	sub := flag.Int("subframes", 64, "MPDUs per A-MPDU at most")
	ppdu := flag.Uint("max-ppdu-us", 4000, "A-MPDU data duration at most, µs")
	seed := flag.Uint64("seed", 1, "seed of the backoff draws")
	flag.Parse()
	if *nss < 1 || *nss > 8 || *mcs < 0 || *mcs > 9 || *legacy < 1000 {
		fail(fmt.Errorf("-max-nss 1-8, -max-mcs 0-9 and -max-legacy-kbps >= 1000 are required"))
	}
	med, err := medium.New(medium.Config{
		Link:         medium.Link{MaxNSS: *nss, MaxMCS: *mcs, MaxLegacyKbps: *legacy},
		MaxSubframes: *sub, MaxPPDU: uint32(*ppdu), Signal: -50, Seed: *seed,
	})
	if err != nil {
		fail(err)
	}
	for _, r := range radios {
		hw := r
		hw[0] |= 0x40
		med.AddRadio(hw, r)
	}
	runtime.LockOSThread()
	if err := hwsimnl.TightTimers(); err != nil {
		fail(err)
	}
	conn, err := hwsimnl.Dial()
	if err != nil {
		fail(err)
	}
	l := &loop{conn: conn, med: med, start: time.Now()}
	if err := conn.Register(func(m hwsimnl.Message) { l.handle(m, l.now()) }); err != nil {
		fail(err)
	}
	fmt.Printf("registered family %#x radios %v link nss<=%d mcs<=%d legacy<=%d kbps\n", conn.Family, radios, *nss, *mcs, *legacy)
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGUSR1, syscall.SIGTERM, syscall.SIGINT)
	if err := l.run(sigs); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "hwsim-medium:", err)
	os.Exit(1)
}

// sent remembers what each sequence number carried, to count the driver's
// refusals by kind.
const seqRing = 4096

type loop struct {
	conn   *hwsimnl.Conn
	med    *medium.Medium
	start  time.Time
	seq    uint32
	kinds  [seqRing]uint8
	out    []byte
	nerr   [3]uint64 // driver errors: [0] other, [1] TX info, [2] RX frame
	undec  uint64
	late   lateness
	last   medium.Stats
	lastAt time.Duration
}

func (l *loop) now() time.Duration { return time.Since(l.start) }

func (l *loop) Deliver(rx ieee80211.MAC, data []byte, rate, freq uint32, signal int32) {
	l.seq++
	l.kinds[l.seq%seqRing] = 2
	l.out = hwsimnl.AppendRxFrame(l.out, l.conn.Family, l.seq, &hwsimnl.RxFrame{Receiver: rx, Data: data, RxRate: rate, Signal: signal, Freq: freq})
}

func (l *loop) Status(t *hwsimnl.TxInfo) {
	l.seq++
	l.kinds[l.seq%seqRing] = 1
	l.out = hwsimnl.AppendTxInfo(l.out, l.conn.Family, l.seq, t)
}

func (l *loop) handle(m hwsimnl.Message, now time.Duration) {
	if e, ok := m.Error(); ok {
		if e != 0 {
			l.nerr[l.kinds[m.Seq%seqRing]]++
		}
		return
	}
	if m.Type != l.conn.Family {
		return
	}
	switch cmd, _ := m.Cmd(); cmd {
	case hwsimnl.CmdFrame:
		f, err := hwsimnl.DecodeFrame(m)
		if err != nil {
			l.undec++
			return
		}
		l.med.Submit(now, &f)
	case hwsimnl.CmdAddMACAddr, hwsimnl.CmdDelMACAddr:
		if a, err := hwsimnl.DecodeAddrChange(m); err == nil {
			l.med.ChangeAddr(a)
		}
	}
}

func (l *loop) datagram(b []byte, now time.Duration) {
	for len(b) > 0 {
		m, rest, err := hwsimnl.Split(b)
		if err != nil {
			l.undec++
			return
		}
		l.handle(m, now)
		b = rest
	}
}

// run waits for the driver's frames or the next event, whichever first,
// with ppoll's precision; signals are looked at every 20 ms at most.
func (l *loop) run(sigs <-chan os.Signal) error {
	buf := make([]byte, 1<<17)
	for {
		wait := 20 * time.Millisecond
		if at, ok := l.med.Next(); ok {
			wait = min(wait, max(0, at-l.now()))
		}
		b, err := l.conn.Recv(buf, wait)
		if err != nil {
			return err
		}
		for b != nil {
			l.datagram(b, l.now())
			if b, err = l.conn.RecvNow(buf); err != nil {
				return err
			}
		}
		if at, ok := l.med.Next(); ok && at <= l.now() {
			l.late.add(l.med.Run(l.now(), l))
		}
		if len(l.out) > 0 {
			if err := l.conn.Send(l.out); err != nil {
				return fmt.Errorf("send: %w", err)
			}
			l.out = l.out[:0]
		}
		select {
		case s := <-sigs:
			l.report()
			if s != syscall.SIGUSR1 {
				return nil
			}
		default:
		}
	}
}

func (l *loop) report() {
	now := l.now()
	st := l.med.Stats()
	d := st.Since(l.last)
	fmt.Printf("STATS %s late_mean_us=%.1f late_max_us=%d late_over_100us=%d nl_err_txinfo=%d nl_err_rx=%d nl_err_other=%d undecodable=%d\n",
		strings.TrimSpace(d.Text(now-l.lastAt)), l.late.mean(), l.late.max.Microseconds(), l.late.over, l.nerr[1], l.nerr[2], l.nerr[0], l.undec)
	l.last, l.lastAt, l.late, l.nerr, l.undec = st, now, lateness{}, [3]uint64{}, 0
}

// lateness: how long after its time the medium handled an event.
type lateness struct {
	n, over uint64
	sum     time.Duration
	max     time.Duration
}

func (t *lateness) add(d time.Duration) {
	t.n++
	t.sum += d
	t.max = max(t.max, d)
	if d > 100*time.Microsecond {
		t.over++
	}
}

func (t *lateness) mean() float64 {
	if t.n == 0 {
		return 0
	}
	return float64(t.sum.Microseconds()) / float64(t.n)
}
