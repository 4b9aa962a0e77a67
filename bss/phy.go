package bss

import (
	"fmt"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
	"github.com/airq/airq/rate"
)

// PHY is what the radio can deliver by injection beyond legacy rates, as the
// operator configures it (hostapd's ieee80211n/ac, ht_capab, vht_capab,
// vht_oper_chwidth). The zero value is legacy only.
type PHY struct {
	HT  bool
	VHT bool // 5 GHz only; implies HT
	// Width is the operating channel width in MHz: 20 (default), 40, 80 or
	// 160. 40 MHz needs Secondary; 80 and 160 need VHT.
	Width int
	// Secondary is +1 or -1: the secondary 20 MHz channel above or below the
	// primary (HT40+ / HT40-), for a 40 MHz channel.
	Secondary int
	Streams   int // spatial streams; default 1
	// The short guard interval, per width, as hostapd's capability flags
	// give it ([SHORT-GI-20] and [SHORT-GI-40] of ht_capab, [SHORT-GI-80]
	// and [SHORT-GI-160] of vht_capab): advertised, and used towards
	// stations that announce it, at that width only. SGI40 needs a 40 MHz
	// channel or wider, SGI80 and SGI160 VHT at that width.
	SGI20, SGI40, SGI80, SGI160 bool
	LDPC                        bool
	// MaxMPDU is the longest MPDU announced in the VHT Capabilities:
	// 7991 or 11454 octets (vht_capab's [MAX-MPDU-7991], [MAX-MPDU-11454]);
	// 0 is 3895. Receive buffers hold the largest.
	MaxMPDU int
	// OBSSInterval is hostapd's obss_interval, seconds: with HT, an
	// Overlapping BSS Scan Parameters element follows the HT
	// Capabilities, and 40 MHz comes back that long times 5 after
	// coexistence made the radio 20 MHz (ap's coex_run.go). 0 sends none.
	OBSSInterval int
	// Held20 is a 40 MHz channel that 20/40 MHz coexistence holds at 20
	// MHz (Width 20, Secondary 0): the HT Operation and the rates are 20
	// MHz, the HT Capabilities stay those of 40 MHz, as hostapd keeps its
	// ht_capab (a station that saw no 40 MHz support at association would
	// stay at 20 MHz once 40 MHz comes back).
	Held20 bool
}

// ReceiveAMSDU is the longest A-MSDU airq announces it receives: uplink
// A-MSDUs are taken apart in software, with room in every receive buffer.
const ReceiveAMSDU = 7935

// PHYElems holds the HT/VHT elements the BSS advertises, built once.
type PHYElems struct {
	HTCap, HTOper, VHTCap, VHTOper []byte
	Caps                           rate.Caps // ours, for rate selection
	Width                          radio.Bandwidth
}

// Validate fills in the defaults and checks p on channel ch at freq MHz;
// errors name hostapd's key.
func (p PHY) Validate(ch int, freq int) (PHY, error) {
	if p.VHT {
		p.HT = true
		if freq < 5000 {
			return p, fmt.Errorf("ieee80211ac: VHT needs a 5 GHz channel, not %d", ch)
		}
	}
	if p.Width == 0 {
		p.Width = 20
	}
	if p.Streams == 0 {
		p.Streams = 1
	}
	if p.Streams < 1 || p.Streams > 4 {
		return p, fmt.Errorf("streams: %d, want 1 to 4", p.Streams)
	}
	switch {
	case p.Width == 20:
	case p.Width == 40 && p.HT:
		if p.Secondary != 1 && p.Secondary != -1 {
			return p, fmt.Errorf("ht_capab: a 40 MHz channel needs [HT40+] or [HT40-]")
		}
	case (p.Width == 80 || p.Width == 160) && p.VHT:
		if centerChannel(ch, p.Width) == 0 {
			return p, fmt.Errorf("vht_oper_chwidth: channel %d has no %d MHz channel around it", ch, p.Width)
		}
	default:
		return p, fmt.Errorf("channel width: %d MHz, want 20, 40 (HT) or 80/160 (VHT)", p.Width)
	}
	if !p.HT && p.Width != 20 {
		return p, fmt.Errorf("channel width: %d MHz needs ieee80211n", p.Width)
	}
	if p.OBSSInterval < 0 || p.OBSSInterval > 65535 {
		return p, fmt.Errorf("obss_interval: %d s, want 0 to 65535", p.OBSSInterval)
	}
	switch p.MaxMPDU {
	case 0, 3895, 7991, 11454:
	default:
		return p, fmt.Errorf("vht_capab: maximum MPDU length %d, want 7991 or 11454 ([MAX-MPDU-7991], [MAX-MPDU-11454]) or 3895", p.MaxMPDU)
	}
	return p, nil
}

// centerChannel returns the centre channel number of the 80 or 160 MHz
// channel that contains 5 GHz channel ch, or 0.
func centerChannel(ch, width int) int {
	var blocks [][2]int // first channel, centre
	switch width {
	case 80:
		blocks = [][2]int{{36, 42}, {52, 58}, {100, 106}, {116, 122}, {132, 138}, {149, 155}, {165, 171}}
	case 160:
		blocks = [][2]int{{36, 50}, {100, 114}, {149, 163}}
	}
	span := width / 5 // channel numbers covered
	for _, b := range blocks {
		if ch >= b[0] && ch < b[0]+span {
			return b[1]
		}
	}
	return 0
}

// CenterFreq returns the centre frequency in MHz of the channel p spans
// around primary channel ch at freq (the primary's own for 20 MHz).
func (p PHY) CenterFreq(ch, freq int) int {
	switch p.Width {
	case 40:
		return freq + 10*p.Secondary
	case 80, 160:
		return ieee80211.ChannelToFreq(centerChannel(ch, p.Width), ieee80211.Band5GHz)
	}
	return freq
}

// NewPHYElems builds the elements p advertises on primary channel ch at
// freq, beside the legacy rates (the RateSet's IE).
func NewPHYElems(p PHY, ch, freq int, rates []byte) PHYElems {
	e := PHYElems{Width: radio.Bandwidth(p.Width)}
	if p.HT {
		cap40 := p.Width >= 40 || p.Held20
		e.HTCap = ieee80211.AppendHTCap(nil, ieee80211.HTPHY{
			Streams: p.Streams, Width40: cap40, SGI20: p.SGI20, SGI40: p.SGI40 && cap40, LDPC: p.LDPC,
			MaxAMSDU: ReceiveAMSDU,
		}.Cap())
		if p.OBSSInterval != 0 {
			// After the HT Capabilities wherever they go, as hostapd.
			e.HTCap = ieee80211.AppendOBSSScanParams(e.HTCap, uint16(p.OBSSInterval))
		}
		sec := uint8(ieee80211.HTOperSecondaryNone)
		switch p.SecondaryAt(ch) {
		case -1:
			sec = ieee80211.HTOperSecondaryBelow
		case 1:
			sec = ieee80211.HTOperSecondaryAbove
		}
		e.HTOper = ieee80211.AppendHTOper(nil, ieee80211.NewHTOper(uint8(ch), sec))
	}
	if p.VHT {
		e.VHTCap = ieee80211.AppendVHTCap(nil, ieee80211.VHTPHY{
			Streams: p.Streams, Width: p.Width, SGI80: p.SGI80 && p.Width >= 80, SGI160: p.SGI160 && p.Width == 160, LDPC: p.LDPC,
			MaxMPDU: p.MaxMPDU,
		}.Cap())
		center := uint8(ch)
		if p.Width >= 40 {
			center = uint8(ieee80211.FreqToChannel(p.CenterFreq(ch, freq)))
		}
		e.VHTOper = ieee80211.AppendVHTOper(nil, ieee80211.NewVHTOper(p.Width, uint8(ch), center))
	}
	var ies []byte
	ies = ieee80211.AppendRates(ies, rates)
	ies = append(ies, e.HTCap...)
	ies = append(ies, e.VHTCap...)
	e.Caps = rate.CapsFromElements(ieee80211.Elements(ies))
	return e
}

// SecondaryAt is where the secondary 20 MHz channel lies around primary
// channel ch: 1 above, -1 below, 0 on a 20 MHz channel. On an 80 or 160
// MHz channel it is the other half of the primary's 40 MHz channel, whose
// halves pair up from the wide channel's lowest (36 and 40, 44 and 48).
func (p PHY) SecondaryAt(ch int) int {
	switch {
	case p.Width >= 80:
		low := centerChannel(ch, p.Width) - (p.Width/5)/2 + 2 // the lowest 20 MHz channel
		if (ch-low)/4%2 == 0 {
			return 1
		}
		return -1
	case p.Width >= 40 && p.Secondary < 0:
		return -1
	case p.Width >= 40:
		return 1
	}
	return 0
}

// HT and VHT report whether the BSS advertises and uses HT, VHT.
func (e *PHYElems) HT() bool  { return e.HTCap != nil }
func (e *PHYElems) VHT() bool { return e.VHTCap != nil }

// Append adds the HT elements, the HT Operation with operation mode
// opMode (the radio's protection), then between (the Extended
// Capabilities element, in hostapd's order), then the VHT elements if vht.
func (e *PHYElems) Append(b []byte, vht bool, between []byte, opMode uint16) []byte {
	b = append(b, e.HTCap...)
	b = appendHTOper(b, e.HTOper, opMode)
	b = append(b, between...)
	if vht {
		b = append(b, e.VHTCap...)
		b = append(b, e.VHTOper...)
	}
	return b
}

// WidthName is the channel's width as hostapd's ht_capab and iw name it.
func (p PHY) WidthName() string {
	switch {
	case p.VHT:
		return fmt.Sprintf("VHT%d", p.Width)
	case p.HT && p.Width == 40 && p.Secondary < 0:
		return "HT40-"
	case p.HT && p.Width == 40:
		return "HT40+"
	case p.HT:
		return "HT20"
	}
	return "20 MHz (no HT)"
}
