package radio

import "testing"

// The figures are the standard's rate tables (IEEE 802.11 19.5, 21.5, 27.5),
// in kbit/s, rounded down.
func TestKbps(t *testing.T) {
	for _, tt := range []struct {
		r    Rate
		want int
	}{
		{LegacyRate(54000), 54000},
		{Rate{Mode: ModeHT, MCS: 7, Bandwidth: BW20, ShortGI: true}, 72222},
		{Rate{Mode: ModeHT, MCS: 15, Bandwidth: BW40}, 270000},
		{Rate{Mode: ModeVHT, MCS: 9, NSS: 1, Bandwidth: BW80, ShortGI: true}, 433333},
		{Rate{Mode: ModeVHT, MCS: 9, NSS: 3, Bandwidth: BW20}, 260000},
		{Rate{Mode: ModeHE, MCS: 0, NSS: 1, Bandwidth: BW20}, 8602},
		{Rate{Mode: ModeHE, MCS: 7, NSS: 1, Bandwidth: BW20, HEGI: HEGI32}, 73125},
		{Rate{Mode: ModeHE, MCS: 11, NSS: 1, Bandwidth: BW80}, 600490},
		{Rate{Mode: ModeHE, MCS: 11, NSS: 2, Bandwidth: BW160, HEGI: HEGI08}, 2401960},
		{Rate{Mode: ModeHE, MCS: 12, NSS: 1, Bandwidth: BW20}, 0},
		{Rate{Mode: ModeHE, MCS: 5, NSS: 1, Bandwidth: BW20, HEGI: 3}, 0},
		{Rate{}, 0},
	} {
		if got := tt.r.Kbps(); got != tt.want {
			t.Errorf("%+v: %d kbit/s, want %d", tt.r, got, tt.want)
		}
	}
}
