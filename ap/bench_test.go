package ap

import (
	"testing"
	"time"

	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/radiotap"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/rsn"
)

// echoDriver turns each frame written to the radio into its acknowledged
// TX-status echo, in a buffer it reuses.
type echoDriver struct {
	echo []byte
	discard
}

func (d *echoDriver) WriteRadio(frames [][]byte) (int, error) {
	for _, f := range frames {
		n, _, _ := radiotap.Parse(f, nil, nil)
		d.echo = radiotap.AppendEcho(d.echo[:0], radio.TxStatus{Acked: true})
		d.echo = append(d.echo, f[n:]...)
	}
	return len(frames), nil
}

// downlinkStep returns one full-size downlink MSDU's trip to staMAC through
// h's core: the wired frame in, the scheduler round, the 802.11 frame out
// through Flush, its echo back.
func downlinkStep(h *harness) func() {
	frame := append(eth(staMAC, host, 0), make([]byte, 1500-84)...)
	d := &echoDriver{echo: make([]byte, 0, 2048)}
	return func() {
		h.now += 100 * time.Microsecond
		d.echo = d.echo[:0]
		h.a.HandleWired(h.now, frame)
		h.a.Flush(h.now, d)
		if len(d.echo) > 0 {
			h.a.HandleRadio(h.now, d.echo)
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
func BenchmarkUplinkFrameCCMP(b *testing.B) {
	h, frames := uplinkFramesCCMP(b, b.N+1)
	d := discard{}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		h.now += 100 * time.Microsecond
		h.a.HandleRadio(h.now, frames[i])
		h.a.Flush(h.now, d)
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
