package ap

import (
	"testing"

	"github.com/airq/airq/internal/radiotap"
	"github.com/airq/airq/radio"
)

// BenchmarkDownlinkFrame is the core's cost of one full-size downlink MSDU:
// the wired frame in, the scheduler round, the 802.11 frame out, its echo
// back. It must not allocate.
func BenchmarkDownlinkFrame(b *testing.B) {
	h := newHarness(b, Config{WMM: true})
	h.join(staMAC, true)
	h.take()
	frame := append(eth(staMAC, host, 0), make([]byte, 1500-84)...)
	var echo []byte
	one := func() {
		h.now += 100_000 // 100 µs
		h.a.HandleWired(h.now, frame)
		out, _ := h.a.Output()
		for _, f := range out {
			n, _, _ := radiotap.Parse(f, nil, nil)
			echo = radiotap.AppendEcho(echo[:0], radio.TxStatus{Acked: true})
			echo = append(echo, f[n:]...)
		}
		h.a.Flushed()
		if len(echo) > 0 {
			h.a.HandleRadio(h.now, echo)
			h.a.Flushed()
		}
	}
	one() // the station's first frame builds its rate table
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		one()
	}
}
