package ap

// CenterFreq returns the centre frequency of the operating channel in MHz
// (the primary's own for 20 MHz), for tuning the monitor interface.
func (c Config) CenterFreq() int { return c.PHY.CenterFreq(c.Channel, c.Freq) }
