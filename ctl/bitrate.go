package ctl

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/airq/airq/radio"
)

// Bitrate is a station's TX or RX rate as iw shows it: the text form is
// what iw 5.19's parse_bitrate prints for the rate info nl80211 carries
// (cfg80211's bit rate, then " MCS 7", " 40MHz", " short GI", " VHT-NSS 2"
// and the like), in the reply and in JSON alike. Only what iw shows
// survives the wire: LDPC and the CCK preamble are dropped.
type Bitrate radio.Rate

// NewBitrate keeps of r what iw shows, in the form UnmarshalText gives
// back: a rate with no known bit rate is the zero Bitrate ("(unknown)").
func NewBitrate(r radio.Rate) Bitrate {
	b := Bitrate{Mode: r.Mode, MCS: r.MCS, NSS: r.NSS, Bandwidth: r.Bandwidth, ShortGI: r.ShortGI, HEGI: r.HEGI}
	switch r.Mode {
	case radio.ModeLegacy:
		b = Bitrate{Mode: r.Mode, Legacy: r.Legacy}
	case radio.ModeHT:
		b.NSS, b.HEGI = 0, 0
	case radio.ModeVHT:
		b.HEGI = 0
	case radio.ModeHE:
		b.ShortGI = false
	}
	if _, ok := b.Bandwidth.Index(); !ok || b.Bandwidth == 0 || b.Mode == radio.ModeLegacy {
		b.Bandwidth = radio.BW20
	}
	if b.Rate100k() == 0 {
		return Bitrate{}
	}
	return b
}

// Per HT/VHT MCS 0-11: coded bits per subcarrier and coding rate (MCS 10
// and 11 are the 1024-QAM rates cfg80211 knows besides the spec's 0-9).
var (
	brBits = [12]int{1, 2, 2, 4, 4, 6, 6, 6, 8, 8, 10, 10}
	brNum  = [12]int{1, 1, 3, 1, 3, 2, 3, 5, 3, 5, 3, 5}
	brDen  = [12]int{2, 2, 4, 2, 4, 3, 4, 6, 4, 6, 4, 6}
	brSub  = [4]int{52, 108, 234, 468} // data subcarriers at 20, 40, 80, 160 MHz
)

// Rate100k returns the bit rate in 100 kbit/s with cfg80211's arithmetic
// (cfg80211_calculate_bitrate), so that airqctl and iw print the same
// figure for the same rate: the per-stream long-GI rate rounded to 100
// kbit/s, times the streams, a short GI as (rate / 9) * 10, rounded. HE
// rates (received only) are radio's figure rounded. 0 when unknown.
func (r Bitrate) Rate100k() uint32 {
	mcs, nss := int(r.MCS), int(r.NSS)
	switch r.Mode {
	case radio.ModeLegacy:
		return uint32(r.Legacy) * 5
	case radio.ModeHT:
		if mcs >= 32 {
			return 0
		}
		mcs, nss = mcs&7, mcs>>3+1
		if r.Bandwidth != radio.BW40 {
			return r.mcsRate(mcs, nss, 0)
		}
		return r.mcsRate(mcs, nss, 1)
	case radio.ModeVHT:
		bwi, ok := radio.Bandwidth(r.Bandwidth).Index()
		if !ok || mcs >= len(brBits) || nss < 1 {
			return 0
		}
		return r.mcsRate(mcs, nss, bwi)
	case radio.ModeHE:
		return uint32((radio.Rate(r).Kbps() + 50) / 100)
	}
	return 0
}

// mcsRate is cfg80211's HT/VHT rule for MCS 0-11 at bandwidth index bwi.
func (r Bitrate) mcsRate(mcs, nss, bwi int) uint32 {
	// Per-stream bit/s times den: subcarriers x bits x rate over a 4 µs
	// symbol; rounded half up to 100 kbit/s like cfg80211's table.
	x := brSub[bwi] * brBits[mcs] * brNum[mcs] * 250000
	base := (2*x + brDen[mcs]*100000) / (2 * brDen[mcs] * 100000) * 100000
	bitrate := base * nss
	if r.ShortGI {
		bitrate = bitrate / 9 * 10
	}
	return uint32((bitrate + 50000) / 100000)
}

// AppendIW appends the rate as iw's parse_bitrate prints it.
func (r Bitrate) AppendIW(b []byte) []byte {
	rate := r.Rate100k()
	if rate == 0 {
		return append(b, "(unknown)"...)
	}
	b = strconv.AppendUint(b, uint64(rate/10), 10)
	b = strconv.AppendUint(append(b, '.'), uint64(rate%10), 10)
	b = append(b, " MBit/s"...)
	switch r.Mode {
	case radio.ModeHT:
		b = strconv.AppendUint(append(b, " MCS "...), uint64(r.MCS), 10)
	case radio.ModeVHT:
		b = strconv.AppendUint(append(b, " VHT-MCS "...), uint64(r.MCS), 10)
	}
	if r.Mode != radio.ModeLegacy {
		switch r.Bandwidth {
		case radio.BW40:
			b = append(b, " 40MHz"...)
		case radio.BW80:
			b = append(b, " 80MHz"...)
		case radio.BW160:
			b = append(b, " 160MHz"...)
		}
	}
	if r.ShortGI && (r.Mode == radio.ModeHT || r.Mode == radio.ModeVHT) {
		b = append(b, " short GI"...)
	}
	switch r.Mode {
	case radio.ModeVHT:
		b = strconv.AppendUint(append(b, " VHT-NSS "...), uint64(r.NSS), 10)
	case radio.ModeHE:
		// airq learns no DCM from radiotap's HE fields it reads.
		b = strconv.AppendUint(append(b, " HE-MCS "...), uint64(r.MCS), 10)
		b = strconv.AppendUint(append(b, " HE-NSS "...), uint64(r.NSS), 10)
		b = strconv.AppendUint(append(b, " HE-GI "...), uint64(r.HEGI), 10)
		b = append(b, " HE-DCM 0"...)
	}
	return b
}

// MarshalText prints the iw form.
func (r Bitrate) MarshalText() ([]byte, error) { return r.AppendIW(nil), nil }

// AppendText appends the same form without allocating (the reply encoder).
func (r Bitrate) AppendText(b []byte) ([]byte, error) { return r.AppendIW(b), nil }

var errBitrate = errors.New(`want iw's form, like "72.2 MBit/s MCS 7 short GI" or "(unknown)"`)

// UnmarshalText reads the iw form back. It accepts only what MarshalText
// prints: the figure must be the rate's own and the suffixes in iw's order.
func (r *Bitrate) UnmarshalText(b []byte) error {
	var out Bitrate
	if string(b) != "(unknown)" {
		if err := out.parseIW(string(b)); err != nil {
			return fmt.Errorf("bitrate %q: %w", b, err)
		}
		if string(out.AppendIW(nil)) != string(b) {
			return fmt.Errorf("bitrate %q: %w", b, errBitrate)
		}
	}
	*r = out
	return nil
}

// parseIW fills r from the words of the iw form; UnmarshalText checks
// the result prints back the same.
func (r *Bitrate) parseIW(s string) error {
	num, rest, ok := strings.Cut(s, " MBit/s")
	whole, tenth, dot := strings.Cut(num, ".")
	rate, err := strconv.ParseUint(whole+tenth, 10, 32)
	if !ok || !dot || len(tenth) != 1 || err != nil {
		return errBitrate
	}
	r.Mode, r.Bandwidth = radio.ModeLegacy, radio.BW20
	words := strings.Fields(rest)
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch w {
		case "40MHz", "80MHz", "160MHz":
			bw, _ := strconv.Atoi(strings.TrimSuffix(w, "MHz"))
			r.Bandwidth = radio.Bandwidth(bw)
			continue
		case "short":
			if i+1 == len(words) || words[i+1] != "GI" {
				return errBitrate
			}
			r.ShortGI = true
			i++
			continue
		}
		if i+1 == len(words) {
			return errBitrate
		}
		n, err := strconv.ParseUint(words[i+1], 10, 8)
		if err != nil {
			return errBitrate
		}
		i++
		if err := r.setWord(w, uint8(n)); err != nil {
			return err
		}
	}
	if r.Mode == radio.ModeLegacy {
		if rate%5 != 0 || rate/5 > 255 {
			return errBitrate
		}
		r.Legacy = uint8(rate / 5)
	}
	return nil
}

// setWord applies one "NAME n" pair of the iw form.
func (r *Bitrate) setWord(w string, n uint8) error {
	switch w {
	case "MCS":
		r.Mode, r.MCS = radio.ModeHT, n
	case "VHT-MCS":
		r.Mode, r.MCS = radio.ModeVHT, n
	case "VHT-NSS":
		r.NSS = n
	case "HE-MCS":
		r.Mode, r.MCS = radio.ModeHE, n
	case "HE-NSS":
		r.NSS = n
	case "HE-GI":
		if n > uint8(radio.HEGI32) {
			return errBitrate
		}
		r.HEGI = radio.HEGI(n)
	case "HE-DCM":
		if n != 0 {
			return errBitrate
		}
	default:
		return errBitrate
	}
	return nil
}
