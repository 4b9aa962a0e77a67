package ap

import (
	"encoding/binary"
	"testing"
	"time"

	"github.com/airq/airq/ccmp"
	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/internal/radiotap"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/rsn"
)

// echoSnap is what the benchmarks' echoes keep of the frame sent: the 256
// bytes the radio socket's filter kept when their counts were first taken
// (it keeps 36 now, inject.EchoKeep), held so that the harness's copy costs
// the same from one count to the next.
const echoSnap = 256

// echoDriver turns each frame written to the radio into its acknowledged
// TX-status echo, queued in buffers it reuses until take hands them back
// in send order. The echo's radiotap header is built once and the frame's
// own header is skipped by its length field, so the harness costs the same
// per frame whatever the core does: only the core's share changes when the
// core gets cheaper.
type echoDriver struct {
	bufs       [][]byte // each starts with the frozen TX-status header
	status     int      // that header's length
	head, size int
	lost       int // echoes that found the queue full
	discard
}

func newEchoDriver(depth int) *echoDriver {
	st := radiotap.AppendEcho(nil, radio.TxStatus{Acked: true})
	d := &echoDriver{bufs: make([][]byte, depth), status: len(st)}
	for i := range d.bufs {
		d.bufs[i] = append(make([]byte, 0, 2048), st...)
	}
	return d
}

func (d *echoDriver) WriteRadio(frames [][]byte) (int, error) {
	for _, f := range frames {
		if d.size == len(d.bufs) {
			d.lost++
			continue
		}
		n := int(binary.LittleEndian.Uint16(f[2:4])) // radiotap it_len
		b := &d.bufs[(d.head+d.size)%len(d.bufs)]
		*b = append((*b)[:d.status], f[n:min(len(f), n+echoSnap)]...)
		d.size++
	}
	return len(frames), nil
}

// take returns the oldest echo not yet taken, or nil.
func (d *echoDriver) take() []byte {
	if d.size == 0 {
		return nil
	}
	e := d.bufs[d.head]
	d.head = (d.head + 1) % len(d.bufs)
	d.size--
	return e
}

// downlinkStep returns one full-size downlink MSDU's trip to staMAC through
// h's core: the wired frame in, the scheduler round, the 802.11 frame out
// through Flush, its echo back.
func downlinkStep(h *harness) func() { return downlinkStepTo(h, 0, staMAC) }

// downlinkStepTo is downlinkStep to station sta from BSS side's wired side.
func downlinkStepTo(h *harness, side int, sta ieee80211.MAC) func() {
	frame := append(eth(sta, host, 0), make([]byte, 1500-84)...)
	d := newEchoDriver(4)
	return func() {
		h.now += 100 * time.Microsecond
		h.a.HandleWired(h.now, side, frame)
		h.a.Flush(h.now, d)
		if e := d.take(); e != nil {
			h.a.HandleRadio(h.now, e)
			h.a.Flush(h.now, d)
		}
	}
}

// downlinkFrame is downlinkStep on an open BSS.
func downlinkFrame(tb testing.TB) func() {
	h := newHarness(tb, Config{WMM: true})
	h.join(staMAC, true)
	h.take()
	return downlinkStep(h)
}

// BenchmarkDownlinkFrame is the core's cost of one full-size downlink MSDU.
func BenchmarkDownlinkFrame(b *testing.B) {
	step := downlinkFrame(b)
	step() // the station's first frame builds its rate table
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		step()
	}
}

// TestDownlinkFrameAllocs: the downlink hot path, Flush and the driver
// calls included, allocates nothing.
func TestDownlinkFrameAllocs(t *testing.T) {
	step := downlinkFrame(t)
	for range 100 { // warm up: rate control settles, pools fill
		step()
	}
	if n := testing.AllocsPerRun(1000, step); n != 0 {
		t.Errorf("%.1f allocations per downlink frame, want 0", n)
	}
}

// backloggedStations is how many stations BenchmarkDownlinkFrame8 keeps
// busy at once.
const backloggedStations = 8

// downlinkFrame8 returns one downlink MSDU's trip through an open BSS with
// backloggedStations stations, each with frames queued and in flight: one
// MSDU in for the next station in turn, the round, one echo back. The
// scheduler has every station listed, so its general path is what runs.
func downlinkFrame8(tb testing.TB) (step func(), d *echoDriver, h *harness) {
	h = newHarness(tb, Config{WMM: true})
	frames := make([][]byte, backloggedStations)
	for i := range frames {
		mac := staMAC
		mac[5] = byte(i)
		h.join(mac, true)
		frames[i] = append(eth(mac, host, 0), make([]byte, 1500-84)...)
	}
	h.take()
	d = newEchoDriver(1024)
	n := 0
	in := func() {
		h.now += 100 * time.Microsecond
		h.a.HandleWired(h.now, 0, frames[n%len(frames)])
		h.a.Flush(h.now, d)
		n++
	}
	// The backlog: more than AQL lets go, every station's queue holding
	// some. Rate control climbs in the first rounds and lets more go, so
	// the backlog is topped up once it has settled.
	fill := func() {
		for i := 0; i < 4096; i++ {
			if q, _ := h.a.sched.Backlog(); q >= 8*backloggedStations {
				break
			}
			in()
		}
	}
	step = func() {
		in()
		if e := d.take(); e != nil {
			h.a.HandleRadio(h.now, e)
			h.a.Flush(h.now, d)
		}
	}
	fill()
	for range 2000 {
		step()
	}
	fill()
	return step, d, h
}

// BenchmarkDownlinkFrame8 is BenchmarkDownlinkFrame with eight backlogged
// stations.
func BenchmarkDownlinkFrame8(b *testing.B) {
	step, d, h := downlinkFrame8(b)
	base := h.a.cnt[counter.WiredSent]
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		step()
	}
	b.StopTimer()
	if sent := h.a.cnt[counter.WiredSent] - base; d.lost != 0 || sent != uint64(b.N) {
		b.Fatalf("%d MSDUs sent for %d in, %d echoes lost", sent, b.N, d.lost)
	}
}

// TestDownlinkFrame8: the eight stations stay backlogged (the scheduler
// has frames of every one queued) and nothing is dropped or lost, so the
// benchmark measures what it says; and it allocates nothing.
func TestDownlinkFrame8(t *testing.T) {
	step, d, h := downlinkFrame8(t)
	for range 1000 {
		step()
	}
	if d.lost != 0 || h.a.cnt[counter.WiredSent] < 900 {
		t.Fatalf("%d echoes lost, %d MSDUs sent", d.lost, h.a.cnt[counter.WiredSent])
	}
	for _, c := range []counter.ID{counter.WiredDroppedCoDel, counter.WiredDroppedQueueFull, counter.WiredDroppedOverlimit, counter.WiredDroppedOvermemory, counter.EchoUnmatched, counter.EchoFailed} {
		if h.a.cnt[c] != 0 {
			t.Errorf("%v = %d, want 0", c, h.a.cnt[c])
		}
	}
	if q, _ := h.a.sched.Backlog(); q < backloggedStations {
		t.Errorf("%d MSDUs queued, want a backlog of at least %d", q, backloggedStations)
	}
	if n := h.a.sched.Listed(ieee80211.ACBE); n != backloggedStations {
		t.Errorf("%d queues listed, want %d", n, backloggedStations)
	}
	if n := testing.AllocsPerRun(1000, step); n != 0 {
		t.Errorf("%.1f allocations per downlink frame with %d stations, want 0", n, backloggedStations)
	}
}

// downlinkFrameCCMP is downlinkFrame for a WPA2 station: the frame is
// encrypted at the TX loop.
func downlinkFrameCCMP(tb testing.TB) func() {
	h := newHarness(tb, wpaConfig(tb, rsn.AKMPSK))
	w := newWPASTA(h, staMAC, rsn.AKMPSK)
	w.connect()
	h.take()
	return downlinkStep(h)
}

// BenchmarkDownlinkFrameCCMP is BenchmarkDownlinkFrame under WPA2.
func BenchmarkDownlinkFrameCCMP(b *testing.B) {
	step := downlinkFrameCCMP(b)
	step()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		step()
	}
}

// TestDownlinkFrameCCMPAllocs: encryption at the TX loop allocates
// nothing either.
func TestDownlinkFrameCCMPAllocs(t *testing.T) {
	step := downlinkFrameCCMP(t)
	for range 100 {
		step()
	}
	if n := testing.AllocsPerRun(1000, step); n != 0 {
		t.Errorf("%.1f allocations per downlink frame under CCMP, want 0", n)
	}
}

// uplinkLap is how many protected uplink frames the benchmark builds: a
// fixed number, so that building them is not part of the per-frame cost.
const uplinkLap = 512

// uplinkFramesCCMP returns a WPA2 station's core and n full-size protected
// uplink frames for it, radiotap included, each with its own PN.
func uplinkFramesCCMP(tb testing.TB, n int) (*harness, [][]byte) {
	h := newHarness(tb, wpaConfig(tb, rsn.AKMPSK))
	w := newWPASTA(h, staMAC, rsn.AKMPSK)
	w.connect()
	h.take()
	frames := make([][]byte, n)
	for i := range frames {
		frames[i] = append(radiotapRx(), w.frame(0x0800, make([]byte, 1500), true, false)...)
	}
	return h, frames
}

// BenchmarkUplinkFrameCCMP is the core's cost of one full-size protected
// uplink MSDU: the replay check, decryption and the bridge to the TAP.
// The frames are built once and replayed lap after lap, the station's
// replay counters rewound between laps (a few stores per lap).
func BenchmarkUplinkFrameCCMP(b *testing.B) {
	h, frames := uplinkFramesCCMP(b, uplinkLap)
	_, s := h.a.sta.lookup(staMAC)
	d := discard{}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i % len(frames)
		if k == 0 {
			for j := range s.RSN.Keys {
				s.RSN.Keys[j].RX = ccmp.Replay{}
			}
		}
		h.now += 100 * time.Microsecond
		h.a.HandleRadio(h.now, frames[k])
		h.a.Flush(h.now, d)
	}
	if got := h.a.cnt[counter.RxToWired]; got != uint64(b.N) {
		b.Fatalf("%d frames bridged, want %d", got, b.N)
	}
}

// TestUplinkFrameCCMPAllocs: the uplink's decryption allocates nothing.
func TestUplinkFrameCCMPAllocs(t *testing.T) {
	h, frames := uplinkFramesCCMP(t, 1200)
	i := 0
	step := func() {
		h.now += 100 * time.Microsecond
		h.a.HandleRadio(h.now, frames[i])
		h.a.Flush(h.now, discard{})
		i++
	}
	for range 100 {
		step()
	}
	if n := testing.AllocsPerRun(1000, step); n != 0 {
		t.Errorf("%.1f allocations per uplink frame under CCMP, want 0", n)
	}
	if h.a.cnt[counter.RxToWired] != 1101 {
		t.Errorf("%d frames bridged, want 1101", h.a.cnt[counter.RxToWired])
	}
}
