package ieee80211

// Band is a frequency band.
type Band uint8

const (
	Band2GHz Band = iota
	Band5GHz
	Band6GHz
)

func (b Band) String() string {
	switch b {
	case Band2GHz:
		return "2.4GHz"
	case Band5GHz:
		return "5GHz"
	case Band6GHz:
		return "6GHz"
	}
	return "band?"
}

// ChannelToFreq returns the centre frequency in MHz of a 20 MHz channel, or
// 0 if the channel does not exist in the band (cfg80211's
// ieee80211_channel_to_freq_khz).
func ChannelToFreq(ch int, band Band) int {
	if ch <= 0 {
		return 0
	}
	switch band {
	case Band2GHz:
		switch {
		case ch == 14:
			return 2484
		case ch < 14:
			return 2407 + ch*5
		}
	case Band5GHz:
		switch {
		case ch >= 182 && ch <= 196:
			return 4000 + ch*5
		case ch <= 177:
			return 5000 + ch*5
		}
	case Band6GHz:
		switch {
		case ch == 2:
			return 5935
		case ch <= 233:
			return 5950 + ch*5
		}
	}
	return 0
}

// FreqToChannel returns the channel number of a 20 MHz centre frequency, or
// 0 if freq is not one.
func FreqToChannel(freq int) int {
	switch {
	case freq == 2484:
		return 14
	case freq >= 2412 && freq <= 2472:
		return exact(freq-2407, 5)
	case freq >= 4910 && freq <= 4980:
		return exact(freq-4000, 5)
	case freq >= 5005 && freq <= 5885:
		return exact(freq-5000, 5)
	case freq == 5935:
		return 2
	case freq >= 5955 && freq <= 7115:
		return exact(freq-5950, 5)
	}
	return 0
}

// exact returns n/d, or 0 if d does not divide n.
func exact(n, d int) int {
	if n%d != 0 {
		return 0
	}
	return n / d
}

// FreqBand returns the band of a frequency; ok is false outside all three.
func FreqBand(freq int) (Band, bool) {
	switch {
	case freq >= 2400 && freq <= 2500:
		return Band2GHz, true
	case freq >= 4900 && freq < 5925:
		return Band5GHz, true
	case freq >= 5925 && freq <= 7125:
		return Band6GHz, true
	}
	return 0, false
}
