package ap

import "github.com/airq/airq/bss"

// PHY is the BSS's HT/VHT configuration (package bss).
type PHY = bss.PHY

// CenterFreq returns the centre frequency of the operating channel in MHz
// (the primary's own for 20 MHz), for tuning the monitor interface.
func (c Config) CenterFreq() int { return c.PHY.CenterFreq(c.Channel, c.Freq) }
