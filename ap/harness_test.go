package ap

import (
	"errors"
	"testing"
	"time"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/radiotap"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/sae"
)

var (
	bssid  = ieee80211.MAC{0x02, 0, 0, 0, 0x02, 0}
	staMAC = ieee80211.MAC{0x02, 0, 0, 0, 0x01, 0}
	host   = ieee80211.MAC{0x02, 0xaa, 0, 0, 0, 1}
	// 802.11g station rates in 500 kbit/s units, basic bit on the 11b ones.
	gRates = []byte{0x82, 0x84, 0x8b, 0x96, 12, 18, 24, 36, 48, 72, 96, 108}
)

// harness drives one core with frames built the way a mac80211 station
// builds them, and is its driver: it collects the core's output.
type harness struct {
	t     testing.TB
	a     *AP
	now   time.Duration
	seq   uint16
	radio [][]byte
	wired [][]byte
	// wiredBSS is the BSS whose wired side each of wired went to.
	wiredBSS []int
	// events the core reported, until takeEvents
	events []Event
	// retune is the channel the core asked for, until takeRetune
	retune int
	// refuseNext makes the radio refuse the next frame written
	refuseNext bool
	// saeJobs are the SAE jobs Flush handed over (sae_test.go)
	saeJobs []*sae.Job
}

func newHarness(t testing.TB, cfg Config) *harness {
	t.Helper()
	if cfg.SSID == "" {
		cfg.SSID = "airq-test"
	}
	if cfg.BSSID.IsZero() {
		cfg.BSSID = bssid
	}
	if cfg.Channel == 0 {
		cfg.Channel = 1
	}
	a, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, a: a}
	a.Start(0)
	h.collect()
	return h
}

// collect flushes the core's output into the harness.
func (h *harness) collect() { h.a.Flush(h.now, h) }

var errRefused = errors.New("refused by the test radio")

func (h *harness) WriteRadio(frames [][]byte) (int, error) {
	if h.refuseNext {
		h.refuseNext = false
		return 0, errRefused
	}
	for _, f := range frames {
		h.radio = append(h.radio, append([]byte(nil), f...))
	}
	return len(frames), nil
}

func (h *harness) WriteWired(bss int, frames [][]byte) (int, error) {
	for _, f := range frames {
		h.wired = append(h.wired, append([]byte(nil), f...))
		h.wiredBSS = append(h.wiredBSS, bss)
	}
	return len(frames), nil
}

// Retune records the request; the test moves the radio and calls Retuned.
func (h *harness) Retune(freq int) (time.Duration, bool) {
	h.retune = freq
	return 0, false
}

func (h *harness) Event(e Event) { h.events = append(h.events, e) }

// takeRetune returns the retune the core asked for, if any, and forgets it.
func (h *harness) takeRetune() (int, bool) {
	f := h.retune
	h.retune = 0
	return f, f != 0
}

// takeEvents returns the events reported so far and forgets them.
func (h *harness) takeEvents() []Event {
	e := h.events
	h.events = nil
	return e
}

// eventsOf takes the events the core reported and returns those of kind k.
func (h *harness) eventsOf(k EventKind) []Event {
	var out []Event
	for _, e := range h.takeEvents() {
		if e.Kind == k {
			out = append(out, e)
		}
	}
	return out
}

// discard is a driver that writes nothing anywhere, for benchmarks.
type discard struct{}

func (discard) WriteRadio(f [][]byte) (int, error)        { return len(f), nil }
func (discard) WriteWired(_ int, f [][]byte) (int, error) { return len(f), nil }
func (discard) Retune(int) (time.Duration, bool)          { return 0, false }
func (discard) Event(Event)                               {}

func (h *harness) take() (radioOut, wiredOut [][]byte) {
	radioOut, wiredOut = h.radio, h.wired
	h.radio, h.wired, h.wiredBSS = nil, nil, nil
	return
}

func radiotapRx() []byte {
	return radiotap.AppendRx(nil, radio.RxInfo{Freq: 2412, Signal: -40, HasSignal: true, Rate: radio.LegacyRate(54000)})
}

// air delivers an 802.11 frame from a station with an RX radiotap header.
func (h *harness) air(frame []byte) {
	b := radiotap.AppendRx(nil, radio.RxInfo{Freq: 2412, Signal: -40, HasSignal: true, Rate: radio.LegacyRate(54000)})
	h.a.HandleRadio(h.now, append(b, frame...))
	h.collect()
}

// wire hands eth to the core from the first BSS's wired side.
func (h *harness) wire(eth []byte) { h.wireTo(0, eth) }

// wireTo hands eth to the core from BSS bss's wired side.
func (h *harness) wireTo(bss int, eth []byte) {
	h.a.HandleWired(h.now, bss, eth)
	h.collect()
}

func (h *harness) advance(d time.Duration) {
	h.now += d
	h.a.Tick(h.now)
	h.collect()
}

// echo returns a sent frame to the core as its TX-status echo.
func (h *harness) echo(sent []byte, st radio.TxStatus) {
	var rx radio.RxInfo
	var tx radio.TxStatus
	n, _, err := radiotap.Parse(sent, &rx, &tx)
	if err != nil {
		h.t.Fatal(err)
	}
	b := radiotap.AppendEcho(nil, st)
	h.a.HandleRadio(h.now, append(b, sent[n:]...))
	h.collect()
}

func (h *harness) nextSeq() uint16 { h.seq++; return h.seq }

func (h *harness) mgmt(subtype int, from ieee80211.MAC) []byte {
	return ieee80211.AppendMgmtHeader(nil, uint8(subtype), bssid, from, bssid, h.nextSeq())
}

// auth sends an authentication from `from`, which acknowledges the
// response as a real station does (its echo says so; a station is
// authenticated only then). The response stays in the output.
func (h *harness) auth(from ieee80211.MAC, alg, seq uint16) { h.authTo(bssid, from, alg, seq) }

// authNoAck sends an authentication and leaves the response unechoed.
func (h *harness) authNoAck(from ieee80211.MAC, alg, seq uint16) {
	h.air(ieee80211.AppendAuth(h.mgmt(ieee80211.SubtypeAuth, from), alg, seq, 0))
}

// authTo is auth to the radio's BSS of address id.
func (h *harness) authTo(id, from ieee80211.MAC, alg, seq uint16) {
	h.air(ieee80211.AppendAuth(ieee80211.AppendMgmtHeader(nil, ieee80211.SubtypeAuth, id, from, id, h.nextSeq()), alg, seq, 0))
	for i := len(h.radio) - 1; i >= 0; i-- {
		if _, fr := parsed(h.t, h.radio[i]); fr.Is(ieee80211.TypeMgmt, ieee80211.SubtypeAuth) && fr.Addr1() == from {
			h.echo(h.radio[i], radioAcked)
			return
		}
	}
}

func (h *harness) assoc(from ieee80211.MAC, ssid string, rates []byte, wmm bool) {
	b := ieee80211.AppendAssocReq(h.mgmt(ieee80211.SubtypeAssocReq, from), 0x0421, 10)
	b = ieee80211.AppendSSID(b, ssid)
	b = ieee80211.AppendRates(b, rates)
	if wmm {
		b = ieee80211.AppendWMMInfo(b, 0)
	}
	h.air(b)
}

// join authenticates and associates a station and checks it was admitted.
func (h *harness) join(from ieee80211.MAC, wmm bool) uint16 {
	h.t.Helper()
	h.auth(from, 0, 1)
	h.assoc(from, h.a.cfg.SSID, gRates, wmm)
	return h.acceptAssoc(from)
}

// acceptAssoc takes the output, checks it holds a successful association
// response to from, and returns that response's echo as acknowledged, as
// the radio reports it when the station ACKs: then the station is
// associated. It returns the AID.
func (h *harness) acceptAssoc(from ieee80211.MAC) uint16 {
	h.t.Helper()
	out, _ := h.take()
	ar, raw := h.assocResp(out, from)
	if ar.Status() != ieee80211.StatusSuccess {
		h.t.Fatalf("association of %s: status %d", from, ar.Status())
	}
	h.echo(raw, radio.TxStatus{Acked: true})
	return ar.AID()
}

// assocResp finds the association response to `to` in out and returns it
// parsed and as sent (radiotap included).
func (h *harness) assocResp(out [][]byte, to ieee80211.MAC) (ieee80211.AssocResp, []byte) {
	h.t.Helper()
	for _, b := range out {
		_, fr := parsed(h.t, b)
		if fr.Type() == ieee80211.TypeMgmt && (fr.Subtype() == ieee80211.SubtypeAssocResp || fr.Subtype() == ieee80211.SubtypeReassocResp) && fr.Addr1() == to {
			ar, err := ieee80211.ParseAssocResp(fr.Body())
			if err != nil {
				h.t.Fatalf("association response to %s: %v", to, err)
			}
			return ar, b
		}
	}
	h.t.Fatalf("no association response to %s in %d frames", to, len(out))
	return nil, nil
}

// upIPv4 is a station's data frame carrying an IPv4 packet to dst.
func (h *harness) upIPv4(from, dst ieee80211.MAC, tos byte, qos bool) []byte {
	hdr := ieee80211.DataHeader{Flags: ieee80211.FCToDS, Addr1: bssid, Addr2: from, Addr3: dst, Seq: h.nextSeq(), QoS: qos}
	b := ieee80211.AppendDataHeader(nil, hdr)
	b = ieee80211.AppendLLCSNAP(b, 0x0800)
	return append(b, ipv4(tos)...)
}

func ipv4(tos byte) []byte {
	p := make([]byte, 84)
	p[0], p[1] = 0x45, tos
	p[9] = 1 // ICMP
	return p
}

func eth(da, sa ieee80211.MAC, tos byte) []byte {
	b := ieee80211.AppendEtherHdr(nil, da, sa, 0x0800)
	return append(b, ipv4(tos)...)
}

// parsed splits an output frame into its radiotap TX parameters and frame.
func parsed(t testing.TB, b []byte) (radio.RxInfo, ieee80211.Frame) {
	t.Helper()
	var rx radio.RxInfo
	var tx radio.TxStatus
	n, _, err := radiotap.Parse(b, &rx, &tx)
	if err != nil {
		t.Fatalf("radiotap: %v", err)
	}
	fr, err := ieee80211.ParseFrame(b[n:])
	if err != nil {
		t.Fatalf("802.11: %v", err)
	}
	return rx, fr
}

func findMgmt(t testing.TB, out [][]byte, subtype int, to ieee80211.MAC) ieee80211.Frame {
	t.Helper()
	for _, b := range out {
		_, fr := parsed(t, b)
		if fr.Is(ieee80211.TypeMgmt, uint8(subtype)) && fr.Addr1() == to {
			return fr
		}
	}
	t.Fatalf("no management frame subtype %d to %s in %d frames", subtype, to, len(out))
	return nil
}

// radioAcked is the TX status of a frame the station acknowledged.
var radioAcked = radio.TxStatus{Acked: true}
