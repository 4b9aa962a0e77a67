package rate

import (
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/radio"
)

// legacyRates are the 802.11b/g/a rates in 500 kbit/s units; bit i of a
// legacy mask stands for legacyRates[i].
var legacyRates = [12]uint8{2, 4, 11, 22, 12, 18, 24, 36, 48, 72, 96, 108}

const (
	cckMask  = 0x000f // 1, 2, 5.5 and 11 Mbit/s
	ofdmMask = 0x0ff0 // 6 to 54 Mbit/s
)

// MaxNSS is the most spatial streams the rate table covers; more would only
// grow the table of an AP whose radios rarely have them.
const MaxNSS = 4

// Caps is one side's PHY capabilities, as far as rate selection cares.
type Caps struct {
	Legacy uint16 // bit i: the i-th of 1, 2, 5.5, 11, 6, 9, 12, 18, 24, 36, 48, 54 Mbit/s
	HT     bool
	// Greenfield: it receives HT-greenfield PPDUs. Rate selection never
	// sends them; the AP's HT protection counts those that cannot.
	Greenfield bool
	HTMCS      uint32 // receive bitmap of HT MCS 0-31
	HT40       bool   // 40 MHz supported
	SGI20      bool
	SGI40      bool
	LDPC       bool // receives LDPC (HT or VHT)
	VHT        bool
	VHTMap     uint16 // Rx VHT-MCS map, two bits per stream
	VHT160     bool
	SGI80      bool
	SGI160     bool
	// HE: the station announced HE. airq neither advertises nor sends HE,
	// so it never enters the common set; it is shown to operators.
	HE bool
	// Intolerant40: its HT capabilities set Forty MHz Intolerant. Rate
	// selection ignores it; the AP counts such stations, as hostapd's
	// num_sta_ht40_intolerant.
	Intolerant40 bool
}

// LegacyMask returns the mask of the rates in Supported Rates octets (basic
// bits ignored, membership selectors and unknown rates skipped).
func LegacyMask(rates []byte) uint16 {
	var m uint16
	for _, r := range rates {
		if ieee80211.IsSelector(r) {
			continue
		}
		m |= legacyBit(ieee80211.RateValue(r))
	}
	return m
}

// legacyBit returns the mask bit of a rate in 500 kbit/s units, 0 if it
// is not a legacy rate.
func legacyBit(v uint8) uint16 {
	for i, l := range legacyRates {
		if l == v {
			return 1 << i
		}
	}
	return 0
}

// CapsFromElements reads a station's capabilities from the elements of its
// (re)association request: Supported and Extended Supported Rates, HT and
// VHT Capabilities, and whether it announces HE. The AP's own can be read the same way from its beacon.
func CapsFromElements(e ieee80211.Elements) Caps {
	var c Caps
	if b, ok := e.Find(ieee80211.ElemSupportedRates); ok {
		c.Legacy |= LegacyMask(b)
	}
	if b, ok := e.Find(ieee80211.ElemExtSupportedRates); ok {
		c.Legacy |= LegacyMask(b)
	}
	if ht, ok := e.HTCap(); ok {
		c.HT, c.HTMCS, c.HT40 = true, ht.MCSMask(), ht.Width40()
		c.SGI20, c.SGI40, c.LDPC = ht.SGI20(), ht.SGI40(), ht.LDPC()
		c.Greenfield = ht.Info()&ieee80211.HTCapGreenfield != 0
		c.Intolerant40 = ht.Info()&ieee80211.HTCap40Intolerant != 0
	}
	if vht, ok := e.VHTCap(); ok && c.HT {
		c.VHT, c.VHTMap, c.VHT160 = true, vht.RxMCSMap(), vht.MaxWidth() >= 160
		c.SGI80, c.SGI160 = vht.SGI80(), vht.SGI160()
		c.LDPC = c.LDPC || vht.LDPC()
	}
	if b, ok := e.FindExt(ieee80211.ElemExtHECap); ok && len(b) >= ieee80211.ElemExtHECapMinLen {
		c.HE = true
	}
	return c
}

// common is the intersection of two sides' capabilities on a channel.
type common struct {
	legacy   uint16
	htMCS    uint32
	vhtMax   [MaxNSS]int8 // highest VHT MCS per NSS-1, -1 if none
	maxBW    radio.Bandwidth
	sgi      [4]bool // by bandwidth index: 20, 40, 80, 160
	ldpc     bool
	ht, vht  bool
	band2GHz bool
}

func intersect(ap, sta Caps, width radio.Bandwidth, band2GHz bool) common {
	c := common{legacy: ap.Legacy & sta.Legacy, ldpc: ap.LDPC && sta.LDPC, band2GHz: band2GHz, maxBW: radio.BW20}
	if ap.Legacy == 0 {
		c.legacy = sta.Legacy // the AP supports every rate of its band
	}
	if !band2GHz {
		c.legacy &^= cckMask
	}
	c.ht = ap.HT && sta.HT
	c.vht = c.ht && ap.VHT && sta.VHT && !band2GHz
	if !c.ht {
		return c
	}
	c.htMCS = ap.HTMCS & sta.HTMCS
	if width >= radio.BW40 && ap.HT40 && sta.HT40 {
		c.maxBW = radio.BW40
	}
	c.sgi[0], c.sgi[1] = ap.SGI20 && sta.SGI20, ap.SGI40 && sta.SGI40
	if !c.vht {
		return c
	}
	for n := range MaxNSS {
		c.vhtMax[n] = int8(min(ieee80211.VHTMapMaxMCS(ap.VHTMap, n+1), ieee80211.VHTMapMaxMCS(sta.VHTMap, n+1)))
	}
	// A VHT station supports 40 and 80 MHz whatever its HT element says.
	c.maxBW = min(width, radio.BW80)
	if c.maxBW == radio.BW80 {
		if width >= radio.BW160 && ap.VHT160 && sta.VHT160 {
			c.maxBW = radio.BW160
		}
	}
	c.sgi[2], c.sgi[3] = ap.SGI80 && sta.SGI80, ap.SGI160 && sta.SGI160
	return c
}
