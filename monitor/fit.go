package monitor

import (
	"encoding/binary"
	"fmt"

	"github.com/airq/airq/bss"
	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/nl80211"
)

// checkPHY checks the HT/VHT settings against what the phy's band at freq
// declares: asking for something the radio cannot do is an error, as
// hostapd's "Driver does not support configured HT capability" is.
func checkPHY(phy nl80211.PHY, freq int, p bss.PHY) error {
	band := bandOf(phy, freq)
	if band == nil || !p.HT {
		return nil // no such channel is reported elsewhere
	}
	where := fmt.Sprintf("%s's band at %d MHz", phy.Name, freq)
	ht, vht := band.HTCapa, band.VHTCapa
	switch {
	case ht == 0:
		return fmt.Errorf("-ht: %s has no HT", where)
	case p.VHT && vht == 0:
		return fmt.Errorf("-vht: %s has no VHT", where)
	case p.Width >= 40 && ht&ieee80211.HTCapWidth40 == 0:
		return fmt.Errorf("-width %d: %s supports 20 MHz only", p.Width, where)
	case p.Width == 160 && vht&ieee80211.VHTCapWidthMask == 0:
		return fmt.Errorf("-width 160: %s supports up to 80 MHz", where)
	case p.LDPC && ht&ieee80211.HTCapLDPC == 0, p.LDPC && p.VHT && vht&ieee80211.VHTCapRxLDPC == 0:
		return fmt.Errorf("-ldpc: %s does not decode LDPC", where)
	}
	for _, g := range []struct {
		on, has bool
		width   int
	}{
		{p.SGI20, ht&ieee80211.HTCapSGI20 != 0, 20},
		{p.SGI40, ht&ieee80211.HTCapSGI40 != 0, 40},
		{p.VHT && p.SGI80, vht&ieee80211.VHTCapSGI80 != 0, 80},
		{p.VHT && p.SGI160, vht&ieee80211.VHTCapSGI160 != 0, 160},
	} {
		if g.on && !g.has {
			return fmt.Errorf("[SHORT-GI-%d] (-short-gi): %s has no short guard interval at %d MHz", g.width, where, g.width)
		}
	}
	if most := ieee80211.VHTCap(binary.LittleEndian.AppendUint32(nil, vht)).MaxMPDU(); p.VHT && p.MaxMPDU > most {
		return fmt.Errorf("vht_capab [MAX-MPDU-%d]: %s receives MPDUs of at most %d octets", p.MaxMPDU, where, most)
	}
	return nil
}

// bandOf is the band of phy that has the channel at freq, nil if none.
func bandOf(phy nl80211.PHY, freq int) *nl80211.Band {
	for i := range phy.Bands {
		for _, c := range phy.Bands[i].Channels {
			if c.Freq == freq {
				return &phy.Bands[i]
			}
		}
	}
	return nil
}
