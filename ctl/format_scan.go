package ctl

import (
	"fmt"
	"io"
	"strconv"
)

// Scan dump, survey dump and rc_stats in the layouts operators read from
// iw and mac80211's debugfs. They print the reply records; packages scan
// and rate print their own types the same way.

// AppendScanDump appends every BSS in the layout of `iw dev <dev> scan
// dump` (iw's scan.c, the lines airq has the data for).
func AppendScanDump(b []byte, dev string, bsses []BSS) []byte {
	for i := range bsses {
		b = AppendBSS(b, dev, &bsses[i])
	}
	return b
}

// AppendBSS appends one BSS the way iw prints it.
func AppendBSS(b []byte, dev string, e *BSS) []byte {
	b = fmt.Appendf(b, "BSS %s(on %s)\n", e.BSSID, dev)
	tsf := e.TSF / 1e6
	b = fmt.Appendf(b, "\tTSF: %d usec (%dd, %02d:%02d:%02d)\n", e.TSF, tsf/86400, tsf/3600%24, tsf/60%60, tsf%60)
	b = fmt.Appendf(b, "\tfreq: %d.0\n\tbeacon interval: %d TUs\n", e.Freq, e.BeaconInterval)
	b = appendCapability(append(b, "\tcapability:"...), e.Capability)
	if e.HasSignal {
		b = fmt.Appendf(b, "\tsignal: %d.00 dBm\n", e.Signal)
	}
	b = fmt.Appendf(b, "\tlast seen: %d ms ago\n", e.LastSeen)
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
	b = appendSSID(append(b, "\tSSID: "...), e.SSID)
	rates := e.Rates
	if n := min(len(rates), 8); n > 0 {
		b = append(appendRateList(append(b, "\tSupported rates: "...), rates[:n]), " \n"...)
	}
	if e.DSChannel != 0 {
		b = fmt.Appendf(b, "\tDS Parameter set: channel %d\n", e.DSChannel)
	}
	if len(rates) > 8 {
		b = append(appendRateList(append(b, "\tExtended supported rates: "...), rates[8:]), " \n"...)
	}
	if e.HT {
		b = fmt.Appendf(b, "\tHT capabilities:\n\t\tCapabilities: 0x%02x\n", e.HTCapInfo)
	}
	if e.HTOper {
		w := "20 MHz"
		if e.HTAnyWidth {
			w = "any"
		}
		b = fmt.Appendf(b, "\tHT operation:\n\t\t * primary channel: %d\n\t\t * secondary channel offset: %s\n\t\t * STA channel width: %s\n",
			e.HTPrimary, [4]string{"no secondary", "above", "[reserved!]", "below"}[e.HTSecondary&3], w)
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
func appendSSID(b []byte, s string) []byte {
	for i := range len(s) {
		switch c := s[i]; {
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

// AppendSurveyDump appends the surveys in the layout of `iw dev <dev>
// survey dump` (print_survey_handler in iw 5.19's survey.c), each followed
// by airq's own counts for the channel. Like iw for a driver that sends no
// times, a channel without figures (none reported yet) has no time lines.
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
		if s.Active > 0 {
			b = fmt.Appendf(b, "\tchannel active time:\t\t%d ms\n\tchannel busy time:\t\t%d ms\n", s.Active/1000, s.Busy/1000)
			b = fmt.Appendf(b, "\tchannel receive time:\t\t%d ms\n\tchannel transmit time:\t\t%d ms\n", s.Rx/1000, s.Tx/1000)
		}
		b = fmt.Appendf(b, "\tscan dwell time:\t\t%d ms\n\tscan visits:\t\t\t%d\n", s.Dwell/1000, s.Visits)
		b = fmt.Appendf(b, "\tBSSs seen:\t\t\t%d\n\tbeacons heard:\t\t\t%d (%.1f/s)\n\tprobe responses heard:\t\t%d\n",
			s.BSSes, s.Beacons, s.BeaconsPerSecond(), s.ProbeResps)
	}
	return b
}

// AppendScanStatus appends s as key=value lines, like AppendStatus.
func AppendScanStatus(b []byte, s *ScanStatus) []byte {
	return appendKeyValues(b, recScan, s)
}

// AppendRates appends a station's rate table: a header in iw's station
// phrasing, then the rows in the layout of minstrel_ht's rc_stats.
func AppendRates(b []byte, dev string, t *RateTable) []byte {
	b = fmt.Appendf(b, "Station %s (on %s)\n", t.Addr, dev)
	if !t.Selector {
		return fmt.Appendf(b, "\trate selection:\toff (fixed rate)\n\ttx bitrate:\t%d.%d MBit/s (%s)\n",
			t.BestKbps/1000, t.BestKbps%1000/100, t.Best)
	}
	b = fmt.Appendf(b, "\trate selection:\ton\n\tbest rate:\t%d.%d MBit/s (%s)\n", t.BestKbps/1000, t.BestKbps%1000/100, t.Best)
	b = fmt.Appendf(b, "\tframes:\t\t%d\n\tsampling frames:\t%d\n\tunknown reports:\t%d\n\n", t.Frames, t.Samples, t.Unknown)
	return AppendRateStats(b, t.Rows)
}

// AppendRateStats appends rows in the layout of minstrel_ht's rc_stats
// debugfs file: mode, guard interval, streams, the A/B/P flags (best
// throughput, second, most robust), name, airtime, maximum and average
// throughput, probability, retry count, the last interval and the sums.
func AppendRateStats(b []byte, rows []RateStats) []byte {
	b = fmt.Appendf(b, "%-6s %-5s %2s %-4s %-10s %7s %7s %7s %6s %5s %5s %5s %10s %10s %8s\n",
		"mode", "guard", "#", "best", "rate", "airtime", "max_tp", "avg_tp", "prob", "retry",
		"suc", "att", "success", "attempts", "samples")
	for i := range rows {
		r := &rows[i]
		prob := "-"
		if r.Measured {
			prob = strconv.FormatFloat(100*r.Prob, 'f', 1, 64)
		}
		flags := []byte("   ")
		for j, on := range [3]bool{r.Best, r.Second, r.Robust} {
			if on {
				flags[j] = "ABP"[j]
			}
		}
		b = fmt.Appendf(b, "%-6s %-5s %2d %-4s %-10s %7d %7.1f %7.1f %6s %5d %5d %5d %10d %10d %8d\n",
			r.Mode, r.Guard, r.Streams, flags, r.Name, r.Airtime, r.MaxTP, r.TP,
			prob, r.Retries, r.LastSucc, r.LastAtt, r.Successes, r.Attempts, r.Samples)
	}
	return b
}

// WriteRates writes AppendRates's text to w.
func WriteRates(w io.Writer, dev string, t *RateTable) error {
	_, err := w.Write(AppendRates(nil, dev, t))
	return err
}
