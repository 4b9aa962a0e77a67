package nl80211

import (
	"fmt"
	"slices"
)

// ChannelError says why a channel cannot be used for operation.
type ChannelError struct {
	Freq   int    // the 20 MHz channel at fault (MHz)
	Reason string // "disabled", "no-IR", "radar", "not supported", ...
	Hint   string // what the operator can do, if anything
}

func (e *ChannelError) Error() string {
	s := fmt.Sprintf("channel %d (%d MHz): %s", FreqToChannel(e.Freq), e.Freq, e.Reason)
	if e.Hint != "" {
		s += "; " + e.Hint
	}
	return s
}

// Channel returns the wiphy's entry for the 20 MHz channel at freq.
func (p PHY) Channel(freq int) (ChannelInfo, bool) {
	for _, b := range p.Bands {
		for _, ch := range b.Channels {
			if ch.Freq == freq {
				return ch, true
			}
		}
	}
	return ChannelInfo{}, false
}

// ValidateOperating checks that ch can carry an access point on this wiphy
// under the regulatory domain the kernel applied: every 20 MHz channel it
// spans exists and is enabled, none needs radar detection (airq does no DFS)
// and none forbids initiating radiation (mac80211 silently drops injected
// frames there); the width is allowed for the control channel (HT40+/−,
// 80 and 160 MHz restrictions) and the centre frequencies are right.
func (p PHY) ValidateOperating(ch Channel) error {
	if err := ch.normalize(); err != nil {
		return &ChannelError{Freq: ch.Freq, Reason: err.Error()}
	}
	ctl, ok := p.Channel(ch.Freq)
	if !ok {
		return &ChannelError{Freq: ch.Freq, Reason: "not supported by " + p.Name}
	}
	if err := widthAllowed(ctl, ch); err != nil {
		return err
	}
	for _, f := range ch.Subchannels() {
		info, ok := p.Channel(f)
		switch {
		case !ok:
			return &ChannelError{Freq: f, Reason: fmt.Sprintf("not supported by %s (needed for %v)", p.Name, ch.Width)}
		case info.Disabled:
			return &ChannelError{Freq: f, Reason: "disabled by the regulatory domain",
				Hint: "set the country where the radio operates (-country)"}
		case info.Radar:
			return &ChannelError{Freq: f, Reason: "radar detection (DFS) required, which airq does not do",
				Hint: "choose a channel without DFS"}
		case info.NoIR:
			return &ChannelError{Freq: f, Reason: "no initiating radiation (no-IR): injected frames would be dropped",
				Hint: "set the country where the radio operates (-country); the world domain allows no beaconing on 5 GHz"}
		}
	}
	return nil
}

func widthAllowed(ctl ChannelInfo, ch Channel) error {
	fail := func(what string) error {
		return &ChannelError{Freq: ch.Freq, Reason: what + " not allowed on this control channel"}
	}
	switch ch.Width {
	case Width40:
		if ch.Center1 > ch.Freq && ctl.NoHT40Plus {
			return fail("HT40+")
		}
		if ch.Center1 < ch.Freq && ctl.NoHT40Minus {
			return fail("HT40-")
		}
	case Width80, Width80P80:
		if ctl.No80MHz {
			return fail("80 MHz")
		}
	case Width160:
		if ctl.No160MHz {
			return fail("160 MHz")
		}
	}
	return nil
}

// Subchannels returns the control frequencies of the 20 MHz channels ch
// spans, lowest first. ch must be normalised (Center1 set).
func (ch Channel) Subchannels() []int {
	seg := func(center, width int) []int {
		var out []int
		for f := center - width/2 + 10; f < center+width/2; f += 20 {
			out = append(out, f)
		}
		return out
	}
	switch ch.Width {
	case Width40:
		return seg(ch.Center1, 40)
	case Width80:
		return seg(ch.Center1, 80)
	case Width80P80:
		return append(seg(ch.Center1, 80), seg(ch.Center2, 80)...)
	case Width160:
		return seg(ch.Center1, 160)
	}
	return []int{ch.Freq}
}

// Centre frequencies of the 80 and 160 MHz channels of the 5 GHz band
// (802.11-2020 Annex E, channels 42 58 106 122 138 155 171 and 50 114 163).
var (
	center80  = []int{5210, 5290, 5530, 5610, 5690, 5775, 5855}
	center160 = []int{5250, 5570, 5815}
)

// NewChannel computes the channel definition of a control frequency and a
// width. For 40 MHz, above selects HT40+ (secondary channel above) or HT40−;
// 80 and 160 MHz segments are the fixed blocks of the 5 GHz and 6 GHz bands.
func NewChannel(freq int, w Width, above bool) (Channel, error) {
	ch := Channel{Freq: freq, Width: w}
	switch w {
	case Width20NoHT, Width20:
		ch.Center1 = freq
	case Width40:
		ch.Center1 = freq - 10
		if above {
			ch.Center1 = freq + 10
		}
	case Width80, Width160:
		c, ok := segmentCenter(freq, w)
		if !ok {
			return ch, &ChannelError{Freq: freq, Reason: fmt.Sprintf("no %v channel contains it", w)}
		}
		ch.Center1 = c
	default:
		return ch, &ChannelError{Freq: freq, Reason: fmt.Sprintf("%v is not supported", w)}
	}
	return ch, ch.normalize()
}

func segmentCenter(freq int, w Width) (int, bool) {
	width := 80
	centers := center80
	if w == Width160 {
		width, centers = 160, center160
	}
	if freq > 5950 { // 6 GHz: blocks start at 5945 MHz (channel 1 is 5955)
		n := (freq - 5945) / width
		return 5945 + n*width + width/2, true
	}
	i := slices.IndexFunc(centers, func(c int) bool { return freq > c-width/2 && freq < c+width/2 })
	if i < 0 {
		return 0, false
	}
	return centers[i], true
}

// FreqToChannel returns the IEEE channel number of a 20 MHz channel in the
// 2.4, 5 or 6 GHz band, or 0.
func FreqToChannel(freq int) int {
	switch {
	case freq == 2484:
		return 14
	case freq >= 2412 && freq < 2484:
		return (freq - 2407) / 5
	case freq == 5935:
		return 2
	case freq > 5950 && freq <= 7115:
		return (freq - 5950) / 5
	case freq >= 4910 && freq <= 5895:
		return (freq - 5000) / 5
	}
	return 0
}
