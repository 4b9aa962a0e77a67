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
