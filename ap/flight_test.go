package ap

import (
	"testing"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
)

// TestAttemptAirtime: a completion charges the estimate made when the frame
// was sent, for an echo that reports no rate or the rate asked for, and
// the reported rate's airtime when the driver used another.
func TestAttemptAirtime(t *testing.T) {
	h := newHarness(t, Config{WMM: true})
	a := h.a
	asked, used := radio.LegacyRate(54000), radio.LegacyRate(6000)
	rec := &flight{}
	rec.rate, rec.psdu = asked, 1534
	a.pend(rec, 1, ieee80211.ACBE)
	want := a.est.Airtime(asked, ieee80211.ACBE, 1534)
	if rec.air != want || rec.tok.Airtime() != want {
		t.Fatalf("pend kept %d µs and added %d, want %d", rec.air, rec.tok.Airtime(), want)
	}
	a.air.Complete(&rec.tok)
	for _, c := range []struct {
		name     string
		reported radio.Rate
		want     uint32
	}{
		{"no rate reported", radio.Rate{}, want},
		{"the rate asked for", asked, want},
		{"another rate", used, a.est.Airtime(used, ieee80211.ACBE, 1534)},
	} {
		if got := a.attemptAirtime(rec, ieee80211.ACBE, c.reported); got != c.want {
			t.Errorf("%s: %d µs, want %d", c.name, got, c.want)
		}
	}
}
