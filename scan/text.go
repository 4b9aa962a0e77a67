package scan

import (
	"fmt"
	"io"
	"time"

	"github.com/airq/airq/internal/ieee80211"
)

// The text forms are those operators already read: `iw dev X scan dump`
// (iw's scan.c, the lines airq has the data for), `iw dev X survey dump`
// (iw's survey.c, then airq's own counts) and hostapd's ACS debug lines.

// AppendScanDump appends every BSS of bsses in the layout of `iw dev <dev>
// scan dump`; now dates the "last seen" lines.
func AppendScanDump(b []byte, dev string, now time.Duration, bsses []BSS) []byte {
	for i := range bsses {
		b = AppendBSS(b, dev, now, &bsses[i])
	}
	return b
}

// AppendBSS appends one BSS the way iw prints it.
func AppendBSS(b []byte, dev string, now time.Duration, e *BSS) []byte {
	b = fmt.Appendf(b, "BSS %s(on %s)\n", e.BSSID, dev)
	tsf := e.TSF / 1e6
	b = fmt.Appendf(b, "\tTSF: %d usec (%dd, %02d:%02d:%02d)\n", e.TSF, tsf/86400, tsf/3600%24, tsf/60%60, tsf%60)
	b = fmt.Appendf(b, "\tfreq: %d.0\n\tbeacon interval: %d TUs\n", e.Freq, e.BeaconInterval)
	b = appendCapability(append(b, "\tcapability:"...), e.Capability)
	if e.HasSignal {
		b = fmt.Appendf(b, "\tsignal: %d.00 dBm\n", e.Signal)
	}
	b = fmt.Appendf(b, "\tlast seen: %d ms ago\n", (now - e.LastSeen).Milliseconds())
	if e.FromProbe {
		b = append(b, "\tInformation elements from Probe Response frame:\n"...)
	} else {
		b = append(b, "\tInformation elements from Beacon frame:\n"...)
	}
	return appendElements(b, e)
}

var capNames = [16]string{"ESS", "IBSS", "CfPollable", "CfPollReq", "Privacy", "ShortPreamble", "PBCC",
	"ChannelAgility", "SpectrumMgmt", "QoS", "ShortSlotTime", "APSD", "RadioMeasure", "DSSS-OFDM",
	"DelayedBACK", "ImmediateBACK"}

func appendCapability(b []byte, c uint16) []byte {
	for i, n := range capNames {
		if c&(1<<i) != 0 {
			b = append(append(b, ' '), n...)
		}
	}
	return fmt.Appendf(b, " (0x%04x)\n", c)
}

func appendElements(b []byte, e *BSS) []byte {
	b = appendSSID(append(b, "\tSSID: "...), e.SSID[:e.SSIDLen])
	rates := e.Rates[:e.NRates]
	if n := min(len(rates), 8); n > 0 {
		b = appendRates(append(b, "\tSupported rates:"...), rates[:n])
	}
	if e.DSChannel != 0 {
		b = fmt.Appendf(b, "\tDS Parameter set: channel %d\n", e.DSChannel)
	}
	if len(rates) > 8 {
		b = appendRates(append(b, "\tExtended supported rates:"...), rates[8:])
	}
	if e.HT {
		b = fmt.Appendf(b, "\tHT capabilities:\n\t\tCapabilities: 0x%02x\n", e.HTCapInfo)
	}
	if e.HTOper {
		b = fmt.Appendf(b, "\tHT operation:\n\t\t * primary channel: %d\n\t\t * secondary channel offset: %s\n\t\t * STA channel width: %s\n",
			e.HTPrimary, [4]string{"no secondary", "above", "[reserved!]", "below"}[e.HTSecondary&3],
			staWidth(e.HTAnyWidth))
	}
	if e.VHT {
		b = fmt.Appendf(b, "\tVHT capabilities:\n\t\tVHT Capabilities (0x%08x):\n", e.VHTCapInfo)
	}
	if e.VHTOper {
		w := "unknown"
		if e.VHTWidth < 4 {
			w = [4]string{"20 or 40 MHz", "80 MHz", "160 MHz", "80+80 MHz"}[e.VHTWidth]
		}
		b = fmt.Appendf(b, "\tVHT operation:\n\t\t * channel width: %d (%s)\n\t\t * center freq segment 1: %d\n\t\t * center freq segment 2: %d\n\t\t * VHT basic MCS set: 0x%04x\n",
			e.VHTWidth, w, e.VHTSeg0, e.VHTSeg1, e.VHTBasicMCS)
	}
	return b
}

// appendSSID escapes like iw's print_ssid_escaped: printable bytes as
// they are, inner spaces as spaces, everything else as \xNN.
func appendSSID(b []byte, s []byte) []byte {
	for i, c := range s {
		switch {
		case c > ' ' && c < 0x7f && c != '\\':
			b = append(b, c)
		case c == ' ' && i != 0 && i != len(s)-1:
			b = append(b, ' ')
		default:
			b = fmt.Appendf(b, "\\x%02x", c)
		}
	}
	return append(b, '\n')
}

// appendRates prints rates like iw's print_supprates: Mbit/s with one
// decimal, '*' on basic rates, HT and VHT for the membership selectors.
func appendRates(b []byte, rates []byte) []byte {
	b = append(b, ' ')
	for _, r := range rates {
		v := r & 0x7f
		switch {
		case r&0x80 != 0 && v == ieee80211.SelectorVHTPhy:
			b = append(b, "VHT"...)
		case r&0x80 != 0 && v == ieee80211.SelectorHTPhy:
			b = append(b, "HT"...)
		default:
			b = fmt.Appendf(b, "%d.%d", v/2, 5*(v&1))
		}
		if r&0x80 != 0 {
			b = append(b, '*')
		}
		b = append(b, ' ')
	}
	return append(b, '\n')
}

// AppendSurveyDump appends the surveys in the layout of `iw dev <dev>
// survey dump`, each followed by airq's own counts for the channel.
func AppendSurveyDump(b []byte, dev string, ss []Survey) []byte {
	for i := range ss {
		s := &ss[i]
		b = fmt.Appendf(b, "Survey data from %s\n\tfrequency:\t\t\t%d MHz", dev, s.Freq)
		if s.InUse {
			b = append(b, " [in use]"...)
		}
		b = append(b, '\n')
		if s.HasNoise {
			b = fmt.Appendf(b, "\tnoise:\t\t\t\t%d dBm\n", s.Noise)
		}
		b = fmt.Appendf(b, "\tchannel active time:\t\t%d ms\n\tchannel busy time:\t\t%d ms\n", s.Active.Milliseconds(), s.Busy.Milliseconds())
		b = fmt.Appendf(b, "\tchannel receive time:\t\t%d ms\n\tchannel transmit time:\t\t%d ms\n", s.Rx.Milliseconds(), s.Tx.Milliseconds())
		b = fmt.Appendf(b, "\tscan dwell time:\t\t%d ms\n\tscan visits:\t\t\t%d\n", s.Dwell.Milliseconds(), s.Visits)
		b = fmt.Appendf(b, "\tBSSs seen:\t\t\t%d\n\tbeacons heard:\t\t\t%d (%.1f/s)\n\tprobe responses heard:\t\t%d\n",
			s.BSSes, s.Beacons, s.BeaconsPerSecond(), s.ProbeResps)
	}
	return b
}

// AppendDecision appends a channel selection in the phrasing of hostapd's
// ACS debug output, one line per channel with the figures behind it.
func AppendDecision(b []byte, d *Decision) []byte {
	b = fmt.Appendf(b, "ACS: selection by %s, %d MHz\n", d.Method, d.Width)
	for i := range d.Channels {
		s := &d.Channels[i]
		b = fmt.Appendf(b, "ACS:  * channel %d (%d MHz):", s.Channel, s.Freq)
		if s.HasSurvey {
			b = fmt.Appendf(b, " busy %.6f nf %d interference %.6g", s.Busy, s.Noise, s.Interference)
		}
		b = fmt.Appendf(b, " neighbours %d (+%.6g)", s.Neighbours, s.NeighbourPenalty)
		if !s.Candidate {
			b = append(b, " not a candidate\n"...)
			continue
		}
		b = fmt.Appendf(b, " total interference = %.6g", s.Total)
		if s.Bias != 1 {
			b = fmt.Appendf(b, " (%.2f bias)", s.Bias)
		}
		b = fmt.Appendf(b, " score %.6g\n", s.Score)
	}
	if d.Freq != 0 {
		b = fmt.Appendf(b, "ACS: Ideal channel is %d (%d MHz) with total interference factor of %.6g\n", d.Channel, d.Freq, d.Score)
	}
	return b
}

// WriteScanDump writes AppendScanDump's text to w.
func WriteScanDump(w io.Writer, dev string, now time.Duration, bsses []BSS) error {
	_, err := w.Write(AppendScanDump(nil, dev, now, bsses))
	return err
}

// WriteSurveyDump writes AppendSurveyDump's text to w.
func WriteSurveyDump(w io.Writer, dev string, ss []Survey) error {
	_, err := w.Write(AppendSurveyDump(nil, dev, ss))
	return err
}

// WriteDecision writes AppendDecision's text to w.
func WriteDecision(w io.Writer, d *Decision) error {
	_, err := w.Write(AppendDecision(nil, d))
	return err
}

func staWidth(anyWidth bool) string {
	if anyWidth {
		return "any"
	}
	return "20 MHz"
}
