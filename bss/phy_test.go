package bss

import "testing"

// TestSecondaryAt: the secondary 20 MHz channel is the configured side
// on a 40 MHz channel, and the other half of the primary's 40 MHz
// channel on an 80 or 160 MHz one.
func TestSecondaryAt(t *testing.T) {
	for _, c := range []struct {
		p    PHY
		ch   int
		want int
	}{
		{PHY{HT: true}, 6, 0},
		{PHY{HT: true, Width: 40, Secondary: 1}, 6, 1},
		{PHY{HT: true, Width: 40, Secondary: -1}, 40, -1},
		{PHY{VHT: true, Width: 80}, 36, 1},
		{PHY{VHT: true, Width: 80}, 40, -1},
		{PHY{VHT: true, Width: 80}, 44, 1},
		{PHY{VHT: true, Width: 80}, 48, -1},
		{PHY{VHT: true, Width: 80}, 149, 1},
		{PHY{VHT: true, Width: 80}, 161, -1},
		{PHY{VHT: true, Width: 160}, 52, 1},
		{PHY{VHT: true, Width: 160}, 64, -1},
	} {
		if got := c.p.SecondaryAt(c.ch); got != c.want {
			t.Errorf("%s on channel %d: secondary %d, want %d", c.p.WidthName(), c.ch, got, c.want)
		}
	}
}
