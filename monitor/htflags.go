package monitor

import (
	"fmt"

	"github.com/airq/airq/internal/ieee80211"
	"github.com/airq/airq/nl80211"
)

// checkHTFlags refuses an ht_capab flag airq does not act on when the
// radio lacks it, as hostapd refuses it: a configuration written for
// another radio should not start quietly here. The flags airq acts on
// (LDPC, 40 MHz, the short guard intervals) are checkPHY's.
func checkHTFlags(phy nl80211.PHY, freq int, asked uint16) error {
	band := bandOf(phy, freq)
	if band == nil || asked == 0 {
		return nil
	}
	hw := band.HTCapa
	if freq > 4000 {
		asked &^= ieee80211.HTCapDSSSCCK40 // hostapd drops it on 5 GHz first
	}
	for _, f := range []struct {
		bit  uint16
		name string
	}{
		{ieee80211.HTCapGreenfield, "GF"},
		{ieee80211.HTCapTxSTBC, "TX-STBC"},
		{ieee80211.HTCapDelayedBA, "DELAYED-BA"},
		{ieee80211.HTCapMaxAMSDU7935, "MAX-AMSDU-7935"},
		{ieee80211.HTCapDSSSCCK40, "DSSS_CCK-40"},
		{ieee80211.HTCapLSIGTXOPProt, "LSIG-TXOP-PROT"},
	} {
		if asked&f.bit != 0 && hw&f.bit == 0 {
			return htFlagMissing(phy, freq, f.name)
		}
	}
	if asked&ieee80211.HTCapRxSTBCMask > hw&ieee80211.HTCapRxSTBCMask {
		return htFlagMissing(phy, freq, "RX-STBC*")
	}
	return nil
}

func htFlagMissing(phy nl80211.PHY, freq int, flag string) error {
	return fmt.Errorf("ht_capab: driver does not support configured HT capability [%s] (%s's band at %d MHz lacks it)", flag, phy.Name, freq)
}

// checkVHTFlags is checkHTFlags for vht_capab, in hostapd's order: the
// single capabilities the radio must have, and the counts (STBC streams,
// beamformee antennas, sounding dimensions, A-MPDU length, 160 MHz) it
// must reach.
func checkVHTFlags(phy nl80211.PHY, freq int, asked uint32) error {
	band := bandOf(phy, freq)
	if band == nil || asked == 0 {
		return nil
	}
	hw := band.VHTCapa
	for _, f := range []struct {
		mask uint32
		max  bool // a count, compared; else each bit is needed
		name string
	}{
		{0x0000000c, true, "VHT160"},
		{0x00000080, false, "TX-STBC-2BY1"},
		{0x00000700, true, "RX-STBC-*"},
		{0x00000800, false, "SU-BEAMFORMER"},
		{0x00001000, false, "SU-BEAMFORMEE"},
		{0x0000e000, true, "BF-ANTENNA-*"},
		{0x00070000, true, "SOUNDING-DIMENSION-*"},
		{0x00080000, false, "MU-BEAMFORMER"},
		{0x00200000, false, "VHT-TXOP-PS"},
		{0x00400000, false, "HTC-VHT"},
		{0x03800000, true, "MAX-A-MPDU-LEN-EXP*"},
		{0x0c000000, false, "VHT-LINK-ADAPT*"},
		{0x10000000, false, "RX-ANTENNA-PATTERN"},
		{0x20000000, false, "TX-ANTENNA-PATTERN"},
	} {
		want := asked & f.mask
		if f.max && want > hw&f.mask || !f.max && hw&want != want {
			return fmt.Errorf("vht_capab: driver does not support configured VHT capability [%s] (%s's band at %d MHz lacks it)", f.name, phy.Name, freq)
		}
	}
	return nil
}
