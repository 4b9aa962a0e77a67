package ap

import (
	"testing"

	"github.com/airq/airq/counter"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/rsn"
)

// A CCMP QoS data frame whose A-MSDU Present bit an attacker set in flight
// (CVE-2020-24588): the bit is outside the AAD without SPP A-MSDUs, so the
// MIC verifies. With a fresh PN (the original kept from the AP) the
// plaintext is read as an A-MSDU whose first DA is the MSDU's RFC 1042
// header, and dropped whole; after the original, it is a replay.
func TestWPA2AMSDUBitFlipped(t *testing.T) {
	h := newHarness(t, wpaConfig(t, rsn.AKMPSK))
	w := newWPASTA(h, staMAC, rsn.AKMPSK)
	w.connect()
	h.take()
	flip := func(b []byte) []byte {
		f := append([]byte(nil), b...)
		f[24] |= 0x80 // QoS Control b7
		if !ieee80211.Frame(f).AMSDUPresent() {
			t.Fatal("the A-MSDU Present bit did not take")
		}
		return f
	}
	for _, c := range []struct {
		name         string
		sendOriginal bool
		id           counter.ID
	}{
		{"fresh PN", false, counter.RxAMSDUInjected},
		{"after the original", true, counter.RxReplayed},
	} {
		orig := w.frame(0x0800, ipv4(0), true, false)
		if c.sendOriginal {
			h.air(orig)
			if _, wired := h.take(); len(wired) != 1 {
				t.Fatalf("%s: the original: %d wired", c.name, len(wired))
			}
		}
		n, mic := h.a.cnt[c.id], h.a.cnt[counter.RxMICFailure]
		h.air(flip(orig))
		if h.a.cnt[c.id] != n+1 || h.a.cnt[counter.RxMICFailure] != mic {
			t.Errorf("%s: %s %d -> %d, %s %d -> %d", c.name, c.id, n, h.a.cnt[c.id],
				counter.RxMICFailure, mic, h.a.cnt[counter.RxMICFailure])
		}
		if _, wired := h.take(); len(wired) != 0 {
			t.Errorf("%s: %d bridged", c.name, len(wired))
		}
	}
	// The station goes on.
	h.air(w.frame(0x0800, ipv4(0), true, false))
	if _, wired := h.take(); len(wired) != 1 {
		t.Errorf("a genuine frame after the forgeries: %d wired", len(wired))
	}
}
