package config

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/airq/airq/internal/ieee80211"
)

// ht_capab and vht_capab: bracketed flags, each one capability, on only
// when listed (as in hostapd). The flags airq acts on set PHY; hostapd's
// other flags are accepted with one warning naming what airq announces
// instead, because a config written for a radio that has them must still
// start. A flag hostapd does not know is ignored, as hostapd's parser
// ignores it, with a warning naming the nearest flag (a typo drops a
// capability); [HT40], which tutorials write, is neither [HT40+] nor
// [HT40-]: the channel stays 20 MHz wide, and the warning says so.

// The flags of ht_capab and vht_capab airq acts on.
const (
	htCapabWant  = "bracketed flags: [HT40+] or [HT40-], [SHORT-GI-20], [SHORT-GI-40], [LDPC]"
	vhtCapabWant = "bracketed flags: [SHORT-GI-80], [SHORT-GI-160], [RXLDPC], [MAX-MPDU-7991] or [MAX-MPDU-11454]"
)

// htUnused are hostapd's other ht_capab flags, with what airq does instead.
var htUnused = map[string]string{
	"GF":             "airq sends no greenfield PPDUs",
	"TX-STBC":        "airq sends no STBC",
	"RX-STBC1":       "STBC reception is not announced",
	"RX-STBC12":      "STBC reception is not announced",
	"RX-STBC123":     "STBC reception is not announced",
	"DELAYED-BA":     "airq declines Block Ack agreements",
	"MAX-AMSDU-7935": "7935 octets are announced in any case: A-MSDUs are taken apart in software",
	"DSSS_CCK-40":    "DSSS/CCK in 40 MHz is not announced",
	"40-INTOLERANT":  "40 MHz intolerance is not announced",
	"LSIG-TXOP-PROT": "L-SIG TXOP protection is not announced",
	"SMPS-STATIC":    "SM power save stays disabled",
	"SMPS-DYNAMIC":   "SM power save stays disabled",
}

// htFlagBits are the HT Capabilities bits of those flags the radio must
// have, as hostapd checks them (SMPS and 40 MHz intolerance it does not).
var htFlagBits = map[string]uint16{
	"GF": ieee80211.HTCapGreenfield, "TX-STBC": ieee80211.HTCapTxSTBC, "RX-STBC1": 0x0100, "RX-STBC12": 0x0200,
	"RX-STBC123": 0x0300, "DELAYED-BA": ieee80211.HTCapDelayedBA, "MAX-AMSDU-7935": ieee80211.HTCapMaxAMSDU7935,
	"DSSS_CCK-40": ieee80211.HTCapDSSSCCK40, "LSIG-TXOP-PROT": ieee80211.HTCapLSIGTXOPProt,
}

// vhtFlagBits are the VHT Capabilities bits of hostapd's other vht_capab
// flags, as hostapd sets them.
var vhtFlagBits = func() map[string]uint32 {
	m := map[string]uint32{
		"VHT160": 0x4, "VHT160-80PLUS80": 0x8, "TX-STBC-2BY1": 0x80, "RX-STBC-1": 0x100, "RX-STBC-12": 0x200,
		"RX-STBC-123": 0x300, "RX-STBC-1234": 0x400, "SU-BEAMFORMER": 0x800, "SU-BEAMFORMEE": 0x1000,
		"MU-BEAMFORMER": 0x80000, "VHT-TXOP-PS": 0x200000, "HTC-VHT": 0x400000, "VHT-LINK-ADAPT2": 0x8000000,
		"VHT-LINK-ADAPT3": 0xc000000, "RX-ANTENNA-PATTERN": 0x10000000, "TX-ANTENNA-PATTERN": 0x20000000,
	}
	for n := uint32(2); n <= 4; n++ {
		m[fmt.Sprintf("BF-ANTENNA-%d", n)] = (n - 1) << 13
		m[fmt.Sprintf("SOUNDING-DIMENSION-%d", n)] = (n - 1) << 16
	}
	for n := range uint32(8) {
		m[fmt.Sprintf("MAX-A-MPDU-LEN-EXP%d", n)] = n << 23
	}
	return m
}()

const vhtAMPDUExp = 0x03800000

// addVHTFlag adds a flag's bits; of the A-MPDU length exponents the
// highest counts, as hostapd takes it.
func addVHTFlag(c, bits uint32) uint32 {
	if bits&vhtAMPDUExp != 0 {
		return c&^vhtAMPDUExp | max(c&vhtAMPDUExp, bits)
	}
	return c | bits
}

// vhtDependencies drops what hostapd takes only with another flag: the
// beamformee antennas with [SU-BEAMFORMEE], the sounding dimensions with
// [SU-BEAMFORMER], link adaptation with [HTC-VHT].
func vhtDependencies(c uint32) uint32 {
	if c&0x1000 == 0 {
		c &^= 0xe000
	}
	if c&0x800 == 0 {
		c &^= 0x70000
	}
	if c&0x400000 == 0 {
		c &^= 0x0c000000
	}
	return c
}

// vhtUnused are hostapd's other vht_capab flags.
var vhtUnused = func() map[string]string {
	m := map[string]string{
		"VHT160":             "the 160 MHz support announced follows vht_oper_chwidth",
		"VHT160-80PLUS80":    "80+80 MHz is not supported",
		"TX-STBC-2BY1":       "airq sends no STBC",
		"SU-BEAMFORMER":      "airq does not beamform",
		"SU-BEAMFORMEE":      "beamforming is not announced",
		"MU-BEAMFORMER":      "airq does not beamform",
		"RX-ANTENNA-PATTERN": "antenna pattern consistency is not announced",
		"TX-ANTENNA-PATTERN": "antenna pattern consistency is not announced",
		"VHT-TXOP-PS":        "VHT TXOP power save is not announced",
		"HTC-VHT":            "airq sends no HT Control field",
		"VHT-LINK-ADAPT2":    "airq sends no HT Control field",
		"VHT-LINK-ADAPT3":    "airq sends no HT Control field",
	}
	for _, f := range []string{"RX-STBC-1", "RX-STBC-12", "RX-STBC-123", "RX-STBC-1234"} {
		m[f] = "STBC reception is not announced"
	}
	for n := 2; n <= 4; n++ {
		m[fmt.Sprintf("BF-ANTENNA-%d", n)] = "beamforming is not announced"
		m[fmt.Sprintf("SOUNDING-DIMENSION-%d", n)] = "beamforming is not announced"
	}
	for n := range 8 {
		m[fmt.Sprintf("MAX-A-MPDU-LEN-EXP%d", n)] = "airq declines A-MPDU agreements"
	}
	return m
}()

// parseHTCapab reads ht_capab's flags.
func parseHTCapab(p *PHY, v string) error {
	var unused, unknown []string
	for _, f := range capabFlags(v) {
		switch f {
		case "HT40+":
			p.HT40 = "+"
		case "HT40-":
			p.HT40 = "-"
		case "SHORT-GI-20":
			p.SGI20 = true
		case "SHORT-GI-40":
			p.SGI40 = true
		case "LDPC":
			p.LDPC = true
		default:
			if _, ok := htUnused[f]; !ok {
				unknown = append(unknown, unknownFlag(f, htUnused, "HT40+", "HT40-", "SHORT-GI-20", "SHORT-GI-40", "LDPC"))
				continue
			}
			unused = append(unused, f)
			p.HTCapAsked |= htFlagBits[f]
		}
	}
	return capabWarning(unknown, unused, htUnused)
}

// parseVHTCapab reads vht_capab's flags.
func parseVHTCapab(p *PHY, v string) error {
	var unused, unknown []string
	for _, f := range capabFlags(v) {
		switch f {
		case "SHORT-GI-80":
			p.SGI80 = true
		case "SHORT-GI-160":
			p.SGI160 = true
		case "RXLDPC":
			p.LDPC = true
		case "MAX-MPDU-7991":
			p.MaxMPDU = max(p.MaxMPDU, 7991)
		case "MAX-MPDU-11454":
			p.MaxMPDU = 11454
		case "MAX-MPDU-3895":
			return saysWhy{fmt.Errorf("%q: [MAX-MPDU-3895] is not a hostapd flag (3895 octets is the default: leave it out); want %s", v, vhtCapabWant)}
		default:
			if _, ok := vhtUnused[f]; !ok {
				unknown = append(unknown, unknownFlag(f, vhtUnused, "SHORT-GI-80", "SHORT-GI-160", "RXLDPC", "MAX-MPDU-7991", "MAX-MPDU-11454"))
				continue
			}
			unused = append(unused, f)
			p.VHTCapAsked = addVHTFlag(p.VHTCapAsked, vhtFlagBits[f])
		}
	}
	p.VHTCapAsked = vhtDependencies(p.VHTCapAsked)
	return capabWarning(unknown, unused, vhtUnused)
}

// capabWarning is the one warning of a capability line: the flags
// ignored, then hostapd's flags airq does not act on; nil if none.
func capabWarning(unknown, unused []string, why map[string]string) error {
	var msgs []string
	if len(unknown) > 0 {
		msgs = append(msgs, "ignored, as hostapd ignores them: "+strings.Join(unknown, ", "))
	}
	if len(unused) > 0 {
		parts := make([]string, len(unused))
		for i, f := range unused {
			parts[i] = fmt.Sprintf("[%s] (%s)", f, why[f])
		}
		msgs = append(msgs, "not advertised: "+strings.Join(parts, ", "))
	}
	if len(msgs) == 0 {
		return nil
	}
	return warning{strings.Join(msgs, "; ")}
}

// unknownFlag says what a flag hostapd does not have is, with the nearest
// one.
func unknownFlag(f string, others map[string]string, used ...string) string {
	if f == "HT40" {
		return "[HT40] (neither [HT40+] nor [HT40-]: the channel is 20 MHz wide)"
	}
	names := slices.AppendSeq(used, maps.Keys(others))
	if s := nearest(f, names); len(s) > 0 {
		return fmt.Sprintf("[%s] (not a hostapd flag; did you mean [%s]?)", clip(f), s[0])
	}
	return fmt.Sprintf("[%s] (not a hostapd flag)", clip(f))
}

// capabFlags splits "[A][B-C]" into A, B-C.
func capabFlags(v string) []string {
	var out []string
	for _, part := range strings.Split(v, "[") {
		if part = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(part), "]")); part != "" {
			out = append(out, part)
		}
	}
	return out
}
