package scan

import "github.com/airq/airq/internal/ieee80211"

// 20/40 MHz BSS coexistence on 2.4 GHz (IEEE 802.11-2020 11.16.3.2, as
// hostapd's check_40mhz_2g4): before a 40 MHz BSS starts, the neighbours
// heard around it decide whether it may use its secondary channel.

// coexAffected is half the 40 MHz affected range around the pair's centre
// (hostapd's affected_start/end); coexScanned is half of what is scanned:
// wider, so that a 40 MHz BSS whose secondary alone falls in the affected
// range is heard on its primary.
const (
	coexAffected = 25
	coexScanned  = 40
)

// Coex40 is the outcome of the 20/40 MHz check.
type Coex40 struct {
	Permitted bool
	// Why 40 MHz is not permitted, and the BSS that said so; empty and
	// zero when it is.
	Reason string
	BSSID  ieee80211.MAC
	Freq   int // the BSS's channel, MHz
}

// The reasons Check40MHz2G4 gives.
const (
	CoexLegacy     = "overlapping legacy BSS"
	Coex20MHz      = "overlapping 20 MHz HT BSS"
	CoexMismatch   = "40 MHz BSS with another primary/secondary pair"
	CoexIntolerant = "40 MHz Intolerant BSS"
)

// CoexScanFreqs appends to dst the channels of chans to listen on before
// a 40 MHz BSS with primary pri and secondary sec (MHz) starts: those
// within 40 MHz of the pair's centre, disabled ones left out.
func CoexScanFreqs(dst []int, chans []Channel, pri, sec int) []int {
	c := (pri + sec) / 2
	for _, ch := range chans {
		if !ch.Disabled && ch.Freq >= c-coexScanned && ch.Freq <= c+coexScanned {
			dst = append(dst, ch.Freq)
		}
	}
	return dst
}

// Check40MHz2G4 decides whether a 40 MHz BSS on primary pri and secondary
// sec (MHz) may start among the BSSes heard, by hostapd's rules: 40 MHz is
// not permitted if, within 25 MHz of the pair's centre, there is a BSS
// without HT or an HT BSS with no secondary channel on another primary
// than ours, a 40 MHz BSS whose primary or secondary differs from ours, or
// a BSS whose HT Capabilities say 40 MHz Intolerant. A 40 MHz BSS counts
// as in the range if either of its channels is.
func Check40MHz2G4(pri, sec int, bsses []BSS) Coex40 {
	c := (pri + sec) / 2
	start, end := c-coexAffected, c+coexAffected
	in := func(f int) bool { return f >= start && f <= end }
	for i := range bsses {
		b := &bsses[i]
		if b.Freq != pri && in(b.Freq) {
			switch {
			case !b.HT:
				return notPermitted(CoexLegacy, b)
			case b.HTOper && b.HTSecondary == ieee80211.HTOperSecondaryNone:
				return notPermitted(Coex20MHz, b)
			}
		}
		bpri, bsec := b.Freq, b.Freq
		if s := b.secondaryFreq(); s != 0 {
			bsec = s
		}
		if !in(bpri) && !in(bsec) {
			continue
		}
		if bsec != bpri && (bpri != pri || bsec != sec) {
			return notPermitted(CoexMismatch, b)
		}
		if b.HT && b.HTCapInfo&ieee80211.HTCap40Intolerant != 0 {
			return notPermitted(CoexIntolerant, b)
		}
	}
	return Coex40{Permitted: true}
}

// secondaryFreq is the secondary channel of a BSS whose HT Operation says
// it may send 40 MHz PPDUs (the STA Channel Width bit and an offset, as
// hostapd's get_pri_sec_chan); 0 otherwise.
func (b *BSS) secondaryFreq() int {
	if !b.HTOper || !b.HTAnyWidth {
		return 0
	}
	switch b.HTSecondary {
	case ieee80211.HTOperSecondaryAbove:
		return b.Freq + 20
	case ieee80211.HTOperSecondaryBelow:
		return b.Freq - 20
	}
	return 0
}

func notPermitted(why string, b *BSS) Coex40 {
	return Coex40{Reason: why, BSSID: b.BSSID, Freq: b.Freq}
}
