package ap

import (
	"testing"

	"github.com/airq/airq/counter"
	"github.com/airq/airq/rsn"
)

// The data subtypes that say "no data" (CF-Ack, CF-Poll and their QoS
// forms, and the reserved one) carry no MSDU: one with a body, unprotected
// after the key, is a plaintext injection and must not be bridged, nor
// change anything of the station it claims.
func TestWPA2NoDataSubtypesNotBridged(t *testing.T) {
	for _, sub := range []byte{5, 6, 7, 13, 14, 15} {
		h := newHarness(t, wpaConfig(t, rsn.AKMPSK))
		w := newWPASTA(h, staMAC, rsn.AKMPSK)
		w.connect()
		h.take()
		before := h.stationState(staMAC)
		qos := sub&8 != 0
		f := h.upIPv4(staMAC, host, 0, qos)
		f[0] = sub<<4 | 0x08
		n := h.a.cnt[counter.RxUnprotected]
		h.air(f)
		if h.a.cnt[counter.RxUnprotected] != n+1 {
			t.Errorf("subtype %d: not counted as unprotected", sub)
		}
		if _, wired := h.take(); len(wired) != 0 {
			t.Errorf("subtype %d: plaintext MSDU bridged after the key", sub)
		}
		if got := h.stationState(staMAC); got != before {
			t.Errorf("subtype %d changed the station:\n%+v\nwant\n%+v", sub, got, before)
		}
	}
}
