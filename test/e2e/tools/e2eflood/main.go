// Command e2eflood is the e2e harness's admission flooder: from a monitor
// interface on a radio of its own it injects open authentications and
// association requests to an access point, each from one of -addrs random
// locally administered addresses drawn at start, for -duration at -rate
// frames a second:
//
//	e2eflood -ifname fmon0 -bssid 02:00:00:00:00:00 -ssid airq-e2e -duration 10s
//
// Each address authenticates, and sends its association request -lag
// addresses later (about 100 ms at the defaults): by then the AP has its
// authentication response's TX status, and on mac80211_hwsim that status is
// "not acknowledged", since no radio has an interface with a forged address.
// The addresses are taken in turn and start over when all have been used.
// At the end it prints
//
//	SUMMARY sent=N errors=M addrs=A
//
// to stdout and exits 0 (1 if it could not open the interface).
//
// With -sae hnp or -sae h2e it sends SAE Commits instead (sae.go): group
// 19, a valid-looking scalar and element, from -pool addresses counted up
// from -pool-base (the scenario gives active monitors those addresses, so
// the radio acknowledges the AP's answers to them) and from the random
// ones in turn, and it echoes every anti-clogging token the AP sends to
// any of them. The echoes are part of -rate. Its summary adds
//
//	fresh=F echoed=E tokens=T answered=A answered_per_s=R cpu_ms=C
//
// the Commits sent without and with a token, the token requests, the
// AP's own Commits it heard (each one exchange the AP's SAE work ran) and
// the CPU the flooder itself took (user and system), so that a scenario
// can tell its share of a one-CPU VM from the AP's.
// A line STARTED comes first, once the flood is about to begin.
package main

import (
	"encoding/binary"
	"flag"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"syscall"
	"time"

	"airq-e2e-tools/internal/air"
)

func main() {
	ifname := flag.String("ifname", "fmon0", "monitor interface to inject on")
	bssidS := flag.String("bssid", "", "the access point's BSSID")
	ssid := flag.String("ssid", "airq-e2e", "the SSID the association requests name")
	addrs := flag.Int("addrs", 3000, "random source addresses")
	rate := flag.Float64("rate", 600, "frames per second (authentications and association requests; with -sae a fraction too, e.g. 0.7)")
	lag := flag.Int("lag", 30, "addresses between an address's authentication and its association request")
	duration := flag.Duration("duration", 10*time.Second, "how long to flood")
	seed := flag.Uint64("seed", uint64(time.Now().UnixNano()), "seed of the addresses")
	saeMode := flag.String("sae", "", "send SAE Commits: hnp (status 0) or h2e (status 126), echoing tokens")
	pool := flag.Int("pool", 0, "with -sae: addresses the radio acknowledges, counted up from -pool-base (at most 64)")
	poolBase := flag.String("pool-base", "02:5a:e0:00:00:00", "with -sae: the pool's base address (the first is base+1)")
	flag.Parse()
	bssid, err := net.ParseMAC(*bssidS)
	if err != nil || len(bssid) != 6 {
		fmt.Fprintf(os.Stderr, "e2eflood: -bssid %q: want a MAC address\n", *bssidS)
		os.Exit(2)
	}
	fd, err := open(*ifname)
	if err != nil {
		fmt.Fprintf(os.Stderr, "e2eflood: %s: %v\n", *ifname, err)
		os.Exit(1)
	}
	f := &flooder{fd: fd, bssid: bssid, ssid: *ssid, addrs: draw(*addrs, *seed)}
	if *saeMode == "" {
		f.run(*rate, *lag, *duration)
		fmt.Printf("SUMMARY sent=%d errors=%d addrs=%d\n", f.sent, f.errors, len(f.addrs))
		return
	}
	base, err := net.ParseMAC(*poolBase)
	if (*saeMode != "hnp" && *saeMode != "h2e") || *pool < 0 || *pool > 64 || err != nil || len(base) != 6 {
		fmt.Fprintf(os.Stderr, "e2eflood: -sae %q -pool %d -pool-base %q: want hnp or h2e, 0 to 64 addresses, a MAC\n", *saeMode, *pool, *poolBase)
		os.Exit(2)
	}
	rx, err := receiver(*ifname)
	if err != nil {
		fmt.Fprintf(os.Stderr, "e2eflood: %s: %v\n", *ifname, err)
		os.Exit(1)
	}
	f.sae = newSAEFlood(*saeMode == "h2e", poolOf([6]byte(base), *pool))
	stop, done := make(chan struct{}), make(chan struct{})
	go f.sae.listen(rx, bssid, stop, done)
	fmt.Println("STARTED") // a scenario waits for this line, not for a guessed time
	start := time.Now()
	f.run(*rate, *lag, *duration)
	took := time.Since(start)
	close(stop)
	<-done
	s := f.sae
	fmt.Printf("SUMMARY sent=%d errors=%d addrs=%d pool=%d fresh=%d echoed=%d tokens=%d answered=%d answered_per_s=%.1f cpu_ms=%d\n",
		f.sent, f.errors, len(f.addrs), len(s.pool), f.fresh, f.echoed, s.tokens, s.answered, float64(s.answered)/took.Seconds(), cpuMS())
}

// cpuMS is the CPU this process has taken, user and system, in ms.
func cpuMS() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return -1
	}
	return (ru.Utime.Nano() + ru.Stime.Nano()) / 1e6
}

// poolOf is n addresses counted up from base in its last octet.
func poolOf(base [6]byte, n int) [][6]byte {
	out := make([][6]byte, n)
	for i := range out {
		out[i] = base
		out[i][5] += byte(i + 1)
	}
	return out
}

// open returns a packet socket bound to the interface, for writing only.
func open(ifname string) (int, error) { return air.Socket(ifname, 0) }

// draw returns n distinct locally administered unicast addresses.
func draw(n int, seed uint64) [][6]byte {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	seen := map[[6]byte]bool{}
	out := make([][6]byte, 0, n)
	for len(out) < n {
		var m [6]byte
		binary.LittleEndian.PutUint32(m[:4], r.Uint32())
		binary.LittleEndian.PutUint16(m[4:], uint16(r.Uint32()))
		m[0] = m[0]&^1 | 2
		if !seen[m] {
			seen[m] = true
			out = append(out, m)
		}
	}
	return out
}

type flooder struct {
	fd           int
	bssid        net.HardwareAddr
	ssid         string
	addrs        [][6]byte
	seq          uint16
	buf          []byte
	sent, errors int
	k            int  // authentications (or fresh SAE Commits) sent
	owe          bool // the association request of address k-1-lag goes next
	sae          *saeFlood
	fresh        int // SAE Commits without a token
	echoed       int // SAE Commits echoing a token
}

// run sends rate frames a second for d, in 10 ms steps. With -sae each
// step sends what is due by then, so that a step the CPU delayed is made
// up (up to ten steps' worth at once) and the rate holds as far as the
// CPU allows; the admission flood sends its share per step.
func (f *flooder) run(rate float64, lag int, d time.Duration) {
	const step = 10 * time.Millisecond
	perStep := max(int(rate*step.Seconds()), 1)
	start := time.Now()
	tick := time.NewTicker(step)
	defer tick.Stop()
	sent := 0
	for el := time.Duration(0); el < d; el = time.Since(start) {
		n := perStep
		if f.sae != nil {
			due := int(rate * (el + step).Seconds())
			n = min(due-sent, 10*perStep)
		}
		for ; n > 0; n-- {
			if f.sae != nil {
				f.send(f.nextSAE())
			} else {
				f.send(f.next(lag))
			}
			sent++
		}
		<-tick.C
	}
}

// next is the flood's next frame: the authentication of each address in
// turn, each followed by the association request of the address lag
// places back.
func (f *flooder) next(lag int) []byte {
	n := len(f.addrs)
	if f.owe {
		f.owe = false
		return f.assocReq(f.addrs[(f.k-1-lag)%n])
	}
	b := f.auth(f.addrs[f.k%n])
	f.k++
	f.owe = f.k > lag
	return b
}

func (f *flooder) send(frame []byte) {
	if _, err := syscall.Write(f.fd, frame); err != nil {
		f.errors++
		return
	}
	f.sent++
}

// header starts a frame: a radiotap header without fields (the driver
// picks the rate) and a management header from src to the BSSID.
func (f *flooder) header(subtype byte, src [6]byte) []byte {
	b := append(f.buf[:0], 0, 0, 8, 0, 0, 0, 0, 0) // radiotap: version 0, length 8, no fields
	b = append(b, subtype<<4, 0, 0, 0)             // frame control, duration
	b = append(b, f.bssid...)
	b = append(b, src[:]...)
	b = append(b, f.bssid...)
	f.seq++
	b = binary.LittleEndian.AppendUint16(b, f.seq<<4)
	f.buf = b
	return b
}

// auth is an open system authentication, transaction 1.
func (f *flooder) auth(src [6]byte) []byte {
	return append(f.header(0xb, src), 0, 0, 1, 0, 0, 0)
}

// assocReq asks to associate: ESS, short preamble and slot, listen
// interval 10, the SSID and the 802.11b/g rates.
func (f *flooder) assocReq(src [6]byte) []byte {
	b := append(f.header(0x0, src), 0x21, 0x04, 10, 0)
	b = append(b, 0, byte(len(f.ssid)))
	b = append(b, f.ssid...)
	b = append(b, 1, 8, 0x82, 0x84, 0x8b, 0x96, 0x0c, 0x12, 0x18, 0x24)
	return append(b, 50, 4, 0x30, 0x48, 0x60, 0x6c)
}
