package ap

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/rsn"
)

// wpaBSS is a harness with WPA2 stations; deliver hands each frame the AP
// sends to the station it is for (group frames to all).
type wpaBSS struct {
	h    *harness
	stas []*wpaSTA
	fail bool // echo unicast frames as not acknowledged
}

func newBSS(t *testing.T, n int, rsnCfg func(*RSNConfig)) *wpaBSS {
	cfg := wpaConfig(t, rsn.AKMPSK)
	if rsnCfg != nil {
		rsnCfg(cfg.RSN)
	}
	b := &wpaBSS{h: newHarness(t, cfg)}
	for i := range n {
		w := newWPASTA(b.h, ieee80211.MAC{0x02, 0, 0, 0, 0x01, byte(i)}, rsn.AKMPSK)
		b.stas = append(b.stas, w)
		w.associate(testPassphrase)
		b.pump()
		if !w.done {
			t.Fatalf("station %d: no 4-way handshake", i)
		}
	}
	return b
}

// pump delivers until the air is quiet.
func (b *wpaBSS) pump() { b.h.settle(100, b.deliver) }

func (b *wpaBSS) deliver(f []byte) {
	_, fr := parsed(b.h.t, f)
	acked := true
	for _, w := range b.stas {
		if fr.Addr1() != w.addr && !fr.Addr1().IsMulticast() {
			continue
		}
		if fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeDeauth) {
			w.deaut = true // the AP gave up on it
		}
		if fr.Type() == ieee80211.TypeData && !fr.IsNullData() && !w.deaut {
			w.receive(fr)
		}
		acked = !b.fail
	}
	b.h.echo(f, radio.TxStatus{Acked: acked})
	for _, w := range b.stas {
		w.act()
	}
}

// groupPayload is the broadcast MSDU number i carries.
func groupPayload(i int) []byte { return fmt.Appendf(ipv4(0), "group %d.", i) }

// A GTK rekey under a steady broadcast loses no group frame: the AP sends
// with the new key only once every station has it, and the stations keep
// the old one meanwhile.
func TestWPA2GTKRekeyLosesNoGroupFrame(t *testing.T) {
	b := newBSS(t, 3, func(c *RSNConfig) { c.GroupRekey = 2 * time.Second })
	h := b.h
	const n = 400
	for i := range n {
		e := ieee80211.AppendEtherHdr(nil, ieee80211.Broadcast, host, 0x0800)
		h.wire(append(e, groupPayload(i)...))
		b.pump()
		h.advance(10 * time.Millisecond)
		b.pump()
	}
	if h.a.cnt[counter.GTKInstalled] != 2+1 {
		t.Errorf("%d group keys installed in 4 s with a 2 s rekey, want 3", h.a.cnt[counter.GTKInstalled])
	}
	for si, w := range b.stas {
		if !w.done || w.deaut || w.lost != 0 {
			t.Fatalf("station %d lost its connection (%v) or %d frames", si, w.deaut, w.lost)
		}
		for i := range n {
			if !w.hasPayload(groupPayload(i)) {
				t.Fatalf("station %d missed group frame %d", si, i)
			}
		}
	}
}

// A PTK rekey under traffic both ways keeps the station connected; its
// new key carries the traffic after it.
func TestWPA2PTKRekeyUnderTraffic(t *testing.T) {
	b := newBSS(t, 1, func(c *RSNConfig) { c.PTKRekey = time.Second })
	h, w := b.h, b.stas[0]
	first := w.ptk
	for i := range 250 {
		h.wire(append(eth(w.addr, host, 0), fmt.Sprintf("down %d.", i)...))
		b.pump()
		w.send(0x0800, append(ipv4(0), fmt.Sprintf("up %d.", i)...), true)
		b.pump()
		h.advance(10 * time.Millisecond)
		b.pump()
	}
	if w.ptk == first || h.a.cnt[counter.HandshakeCompleted] < 3 {
		t.Fatalf("no PTK rekey in 2.5 s with wpa_ptk_rekey 1 s: %d handshakes", h.a.cnt[counter.HandshakeCompleted])
	}
	if w.deaut || h.a.bss.Associated != 1 || h.a.cnt[counter.HandshakeFailed] != 0 {
		t.Fatalf("the station lost its connection: %v", h.a.cnt.String())
	}
	if !w.hasPayload([]byte("down 249.")) || h.a.cnt[counter.RxToWired] < 245 {
		t.Errorf("traffic after the rekeys: last downlink frame received %v, %d uplink frames bridged",
			w.hasPayload([]byte("down 249.")), h.a.cnt[counter.RxToWired])
	}
	if ev := h.takeEvents(); ev[0].Kind != EventConnected || countKind(ev, EventHandshakeCompleted) < 3 || countKind(ev, EventConnected) != 1 {
		t.Errorf("events %v: want AP-STA-CONNECTED once, EAPOL-4WAY-HS-COMPLETED at each handshake", ev)
	}
}

func countKind(ev []Event, k EventKind) int {
	n := 0
	for _, e := range ev {
		if e.Kind == k {
			n++
		}
	}
	return n
}

// No (key, PN) pair ever covers two frames, whatever happens between the
// queue and the air: frames failing while their station dozes are
// buffered again and rebuilt, EAPOL frames are retried, PTK and GTK
// rekeys run under traffic, PS-Polls fetch frames one by one. The
// stations record every (key, PN) with its ciphertext (wpaSTA.receive).
func TestWPA2NoNonceReuse(t *testing.T) {
	for seed := range uint64(12) {
		r := rand.New(rand.NewPCG(seed, 7))
		b := newBSS(t, 2, func(c *RSNConfig) {
			c.PTKRekey, c.GroupRekey = 700*time.Millisecond, 900*time.Millisecond
		})
		h := b.h
		for step := range 400 {
			w := b.stas[r.IntN(len(b.stas))]
			switch r.IntN(8) {
			case 0, 1:
				h.wire(append(eth(w.addr, host, 0), fmt.Sprintf("u%d", step)...))
			case 2:
				e := ieee80211.AppendEtherHdr(nil, ieee80211.Broadcast, host, 0x0800)
				h.wire(append(e, groupPayload(step)...))
			case 3:
				h.null(w.addr, r.IntN(2) == 0)
			case 4:
				h.psPoll(w.addr, uint16(1+indexOf(b.stas, w)))
			case 5:
				h.advance(time.Duration(r.IntN(300)) * time.Millisecond)
			case 6:
				b.fail = r.IntN(3) == 0
			case 7:
				if w.ptk != nil {
					w.send(0x0800, ipv4(0), true)
				}
			}
			b.pump()
		}
		if h.a.cnt[counter.HandshakeCompleted] < 4 || h.a.cnt[counter.GTKInstalled] < 2 {
			t.Errorf("seed %d: %v: the run did not rekey", seed, h.a.cnt.String())
		}
		if h.a.cnt[counter.Rebuffered] == 0 && seed == 0 {
			t.Errorf("seed %d: no frame was buffered again", seed)
		}
		for _, w := range b.stas {
			if len(w.seen) < 50 {
				t.Errorf("seed %d: %s checked %d frames", seed, w.addr, len(w.seen))
			}
		}
	}
}

func indexOf(s []*wpaSTA, w *wpaSTA) int {
	for i, x := range s {
		if x == w {
			return i
		}
	}
	return -1
}

// With Extended Key ID a PTK rekey has no gap: the new key is installed
// for receive under the other key ID before either side sends with it, so
// no frame fails, however the rekeys fall in the traffic.
func TestWPA2PTKRekeyExtendedKeyID(t *testing.T) {
	cfg := wpaConfig(t, rsn.AKMPSK)
	cfg.RSN.ExtendedKeyID, cfg.RSN.PTKRekey = 1, time.Second
	b := &wpaBSS{h: newHarness(t, cfg)}
	w := newWPASTA(b.h, staMAC, rsn.AKMPSK)
	w.ext = true
	b.stas = []*wpaSTA{w}
	w.associate(testPassphrase)
	b.pump()
	h := b.h
	ids := map[uint8]bool{}
	for i := range 300 {
		h.wire(append(eth(w.addr, host, 0), fmt.Sprintf("down %d.", i)...))
		w.send(0x0800, append(ipv4(0), fmt.Sprintf("up %d.", i)...), true)
		ids[w.ptk.ID()] = true
		b.pump()
		h.advance(10 * time.Millisecond)
		b.pump()
	}
	if h.a.cnt[counter.HandshakeCompleted] < 3 || len(ids) != 2 {
		t.Fatalf("%d handshakes, key IDs used %v", h.a.cnt[counter.HandshakeCompleted], ids)
	}
	if w.lost != 0 || h.a.cnt[counter.RxMICFailure]+h.a.cnt[counter.RxUndecryptable] != 0 || h.a.cnt[counter.RxToWired] != 300 {
		t.Errorf("frames lost: %d down, %v up", w.lost, h.a.cnt.String())
	}
	for i := range 300 {
		if !w.hasPayload(fmt.Appendf(nil, "down %d.", i)) {
			t.Fatalf("downlink frame %d lost", i)
		}
	}
}
