package config

import (
	"fmt"
	"slices"
	"strings"
)

// The README's table of hostapd's keys is made from the tables of this
// package: what keys.go honours (with the words below), and hostapd.go's
// classes with their notes and reasons. TestREADMEKeyTable holds the
// README to it; `go test ./config -run TestREADMEKeyTable -update`
// rewrites it.

// honouredDoc says in the README what airq does with some honoured keys;
// part marks those honoured for some of their values only (the others
// are refused by name).
type honouredDoc struct {
	part  bool
	keys  string // space-separated
	shown string // how the README writes the keys; "": each in backquotes
	text  string
}

var wmmKeyNames = func() string {
	var out []string
	for _, p := range []string{"wmm_ac_", "wme_ac_"} {
		for _, ac := range []string{"be", "bk", "vi", "vo"} {
			for _, f := range []string{"aifs", "cwmin", "cwmax", "txop_limit", "acm"} {
				out = append(out, p+ac+"_"+f)
			}
		}
	}
	return strings.Join(out, " ")
}()

var honouredDocs = []honouredDoc{
	{part: false, keys: "ssid ssid2",
		text: "the network name: `ssid` as written, `ssid2` in hostapd's `\"text\"`, `P\"text\"` (escapes) and hex forms; `-ssid` wins"},
	{part: false, keys: "bssid",
		text: "the BSSID and the monitor interface's address (default: the phy's); `-bssid`"},
	{part: false, keys: "bridge",
		text: "the bridge the TAP joins; `-bridge`"},
	{part: true, keys: "wpa wpa_key_mgmt rsn_pairwise",
		text: "WPA2-Personal: `wpa=2` (or 0, open) only; 1 and 3, TKIP, and AKMs other than `WPA-PSK`, `WPA-PSK-SHA256` and `SAE` are refused; see [WPA2-Personal](#wpa2-personal)"},
	{part: true, keys: "sae_password sae_password_file sae_groups sae_pwe sae_require_mfp sae_confirm_immediate sae_sync anti_clogging_threshold sae_anti_clogging_threshold transition_disable",
		text: "WPA3-Personal's keys, read and checked as hostapd 2.11's (`sae_password`'s and `sae_password_file`'s `|vlanid=` and `|pk=`, groups other than 19, 20 and 21, and `transition_disable` bits other than 0x01 are refused); see [WPA3-Personal](#wpa3-personal)"},
	{part: false, keys: "wpa_passphrase wpa_psk wpa_psk_file",
		text: "the PSKs; a `wpa_psk_file` line's `vlanid` other than 0 is refused (no per-station VLANs)"},
	{part: false, keys: "wpa_group_rekey wpa_strict_rekey wpa_ptk_rekey wpa_deny_ptk0_rekey extended_key_id wpa_disable_eapol_key_retries wpa_pairwise_update_count wpa_group_update_count eapol_version",
		text: "as in hostapd 2.10"},
	{part: false, keys: "ieee80211w assoc_sa_query_max_timeout assoc_sa_query_retry_timeout",
		text: "management frame protection (802.11w) as in hostapd 2.10, with `wpa=2`; see [Protected management frames](#protected-management-frames)"},
	{part: true, keys: "group_mgmt_cipher",
		text: "`AES-128-CMAC` (BIP-CMAC-128) only; BIP-GMAC-128, BIP-GMAC-256 and BIP-CMAC-256 are refused"},
	{part: false, keys: "country_code ieee80211d",
		text: "the regulatory domain airq sets; with `ieee80211d=1` the Country element; `-country`, `-ieee80211d`"},
	{part: false, keys: "hw_mode channel",
		text: "the band and the channel; `channel=0` or `acs_survey` chooses one at start; `-channel`, `-freq`"},
	{part: false, keys: "acs_num_scans acs_chan_bias acs_exclude_dfs",
		text: "automatic channel selection; radar and no-IR channels are scanned, never chosen"},
	{part: false, keys: "beacon_int dtim_period max_num_sta ap_isolate multicast_to_unicast ap_max_inactivity",
		text: "as in hostapd"},
	{part: false, keys: "ignore_broadcast_ssid",
		text: "0 or 1; 2 (the SSID zeroed, its length kept) is refused"},
	{part: false, keys: "supported_rates basic_rates beacon_rate",
		text: "the legacy rates, in hostapd's 100 kbit/s"},
	{part: false, keys: "auth_algs",
		text: "open system; 3 means the same (shared key is never offered); 2 (shared key only) is refused"},
	{part: false, keys: "macaddr_acl accept_mac_file deny_mac_file",
		text: "the access lists, reloaded on SIGHUP; `macaddr_acl=2` (RADIUS) and VLAN ids in the files are refused"},
	{part: false, keys: "wmm_enabled wme_enabled",
		text: "WMM and QoS data; `-wmm`"},
	{part: false, keys: wmmKeyNames, shown: "`wmm_ac_{be,bk,vi,vo}_{aifs,cwmin,cwmax,txop_limit,acm}` `wme_ac_{be,bk,vi,vo}_{aifs,cwmin,cwmax,txop_limit,acm}`",
		text: "the EDCA parameters stations get in the WMM Parameter element (the simulated stations contend with them); `_acm=1` needs admission control (ADDTS) and is refused until airq answers it"},
	{part: false, keys: "ieee80211n ht_capab disable_11n",
		text: "HT: `[HT40+]`/`[HT40-]`, `[SHORT-GI-20]`, `[SHORT-GI-40]`, `[LDPC]`; hostapd's other flags (`[DSSS_CCK-40]`, `[TX-STBC]`, `[RX-STBC1]`, `[MAX-AMSDU-7935]`, ...) are accepted with one warning naming what airq announces instead; a flag hostapd does not know is ignored as hostapd ignores it, with a warning (`[HT40]` is neither `[HT40+]` nor `[HT40-]`: 20 MHz); a flag the radio lacks is refused; on 2.4 GHz `[HT40+]`/`[HT40-]` starts at 20 MHz when the neighbours heard at start forbid 40 MHz, as in hostapd, the pair automatic selection chose too (see `noscan`); `-ht`, `-ht40`"},
	{part: false, keys: "ieee80211ac vht_capab vht_oper_chwidth vht_oper_centr_freq_seg0_idx disable_11ac",
		text: "VHT: `[SHORT-GI-80]`, `[SHORT-GI-160]`, `[RXLDPC]`, `[MAX-MPDU-7991]`, `[MAX-MPDU-11454]`; other flags as for `ht_capab`; `-vht`, `-width`"},
	{part: true, keys: "wpa_pairwise",
		text: "WPA1's cipher list: with `wpa=2` and `rsn_pairwise` set it changes nothing, as in hostapd, and is warned about; without `rsn_pairwise` it is the cipher, and only `CCMP` is accepted"},
	{keys: "interface",
		text: "without `phy=` or `-phy`, airqd drives the phy of this interface (`iw dev` shows it), under the same takeover rules; ignored with a warning otherwise"},
	{keys: "utf8_ssid",
		text: "the Extended Capabilities element's UTF-8 SSID bit, as in hostapd"},
	{keys: "bss_load_update_period chan_util_avg_period",
		text: "the BSS Load element in beacons and probe responses, as hostapd fills it: the station entries, the channel utilization (airtime airq sent and heard over the time passed, x 255, taken every `bss_load_update_period` beacon intervals) and no admission capacity; `chan_util_avg_period` averages the utilization for the status (`channel_utilization`, `chan_util_avg`)"},
	{keys: "ieee80211h local_pwr_constraint spectrum_mgmt_required",
		text: "as in hostapd 2.10 on a channel without radar detection: `local_pwr_constraint` sends the Power Constraint element and `spectrum_mgmt_required=1` sets the Spectrum Management bit on 5 GHz (each needs `ieee80211d=1`, as in hostapd); `ieee80211h=1` on a radar channel is refused: airq does no radar detection (DFS)"},
	{part: true, keys: "bss",
		text: "hostapd's sections: the lines after `bss=NAME` configure another BSS of the radio from hostapd's defaults for a BSS (nothing is taken from the first section), with BSS keys only (`ssid`, `bssid`, the security keys, `bridge`, the access lists, ...); a radio key in a section (`channel`, the EDCA parameters `wmm_ac_*`, ...), a 9th BSS and a name already taken (another section's, the first BSS's interface or TAP, a network interface, a control socket) are refused; a BSS without `bssid=` gets the address after the last derived one, as in hostapd, and hostapd's BSSID mask rule is checked. `-check-config` checks such a file, naming each problem's section. airqd serves each section's name, SSID, BSSID, `ignore_broadcast_ssid`, `dtim_period`, `max_num_sta`, access lists, `ap_isolate`, `ap_max_inactivity`, `auth_timeout`, `assoc_resp_timeout`, `utf8_ssid`, BSS Load keys (its own period over the radio's busy time, its own stations), airtime keys, `wmm_enabled`, `disable_11n`, `disable_11ac`, `multicast_to_unicast`, wired side and security per BSS (open, WPA2, WPA3 or the transition, PMF, with its own keys: authenticator, GTK/IGTK, PSKs, SAE passwords, PMKSA cache), each BSSID held for the hardware's ACKs by an interface of its own; each BSS has its hostapd control socket, named after it, in its section's `ctrl_interface` or else the first section's (`hostapd_cli -i NAME`), and a `SET` on it changes its section"},
	{keys: "airtime_mode airtime_update_interval airtime_bss_weight airtime_bss_limit airtime_sta_weight",
		text: "hostapd's airtime policy with hostapd 2.10's meaning and ranges (`airtime_mode` and `airtime_update_interval` the radio's, the others each BSS's), applied by airq's scheduler: the stations' weights set at association (static) or every update interval (dynamic, limit); a key the mode leaves unused is warned about; reloadable, and shown and set live by `airqctl airtime`"},
	{keys: "preamble",
		text: "as in hostapd: 0, the default, announces the long preamble (no Short Preamble bit, the ERP element's Barker_Preamble_Mode bit); 1 the short one on 2.4 GHz while every associated station has it (a 5 GHz `preamble=1` is warned about: it changes nothing there); numbers other than 0 and 1, which hostapd takes as 1, are refused; the radio's key, refused in a `bss=` section"},
	{keys: "obss_interval",
		text: "as in hostapd: with HT, a value other than 0 adds the Overlapping BSS Scan Parameters element (that scan interval, the standard's defaults elsewhere) after the HT Capabilities and sets the Extended Capabilities' 20/40 BSS Coexistence Management bit; on a 40 MHz radio on 2.4 GHz made 20 MHz by a 20/40 BSS Coexistence Management frame, 40 MHz comes back 5 × obss_interval seconds later (never with 0, as hostapd), and after the last 40 MHz Intolerant station left that long (at once with 0); the radio's key"},
	{keys: "noscan",
		text: "OpenWrt's hostapd key (upstream hostapd has none and always checks): 0, the default, makes a 40 MHz channel on 2.4 GHz listen on the channels within 40 MHz of its pair before it beacons and start at 20 MHz, with a warning naming the BSS, when a neighbour within 25 MHz forbids 40 MHz (a legacy or 20 MHz HT BSS off our primary, a 40 MHz BSS on another pair, 40 MHz Intolerant), as hostapd's check; with `channel=0` the chosen pair is checked over what the selection heard and the channels within 40 MHz of it the selection did not visit, listened to before it beacons; 1 starts at 40 MHz unchecked; warned about where it changes nothing (5 GHz, 20 MHz); the radio's key"},
	{keys: "chanlist freqlist",
		text: "the channels and frequencies automatic channel selection picks among, both applied as in hostapd; with a fixed channel, ignored with a warning"},
}

// KeyRow is one row of the README's table: keys airq takes alike.
type KeyRow struct {
	Keys  []string
	Shown string // the keys as the README writes them
	Class string // honoured, honoured in part, ignored, "ignored if `V`, else refused" or refused
	Text  string // what airq does, or why not
}

// HostapdKeyRows are the rows of every key of hostapd's that airq knows:
// the honoured ones in honouredDocs' order (a key without words there
// gets its accepted values), then the others by class and first key.
func HostapdKeyRows() []KeyRow {
	var rows []KeyRow
	documented := map[string]bool{}
	for _, d := range honouredDocs {
		r := KeyRow{Keys: strings.Fields(d.keys), Shown: d.shown, Class: "honoured", Text: d.text}
		if d.part {
			r.Class = "honoured in part"
		}
		for _, k := range r.Keys {
			documented[k] = true
		}
		rows = append(rows, r)
	}
	for _, k := range Names() {
		if !documented[k] && !IsOwnKey(k) {
			rows = append(rows, KeyRow{Keys: []string{k}, Class: "honoured", Text: "accepts " + keys[k].Want})
		}
	}
	groups := map[[2]string][]string{}
	for k, u := range unused {
		class, text := "ignored", u.note
		switch {
		case u.refuse == "":
		case u.same != nil:
			class, text = "ignored if `"+strings.Join(u.same, "` or `")+"`, else refused", u.refuse
		default:
			class, text = "refused", u.refuse
		}
		g := [2]string{class, text}
		groups[g] = append(groups[g], k)
	}
	var rest []KeyRow
	for g, ks := range groups {
		slices.Sort(ks)
		rest = append(rest, KeyRow{Keys: ks, Class: g[0], Text: g[1]})
	}
	rank := func(c string) int {
		switch {
		case c == "ignored":
			return 0
		case c == "refused":
			return 2
		}
		return 1
	}
	slices.SortFunc(rest, func(a, b KeyRow) int {
		if d := rank(a.Class) - rank(b.Class); d != 0 {
			return d
		}
		return strings.Compare(a.Keys[0], b.Keys[0])
	})
	return append(rows, rest...)
}

// KeyTableMarkdown is the README's table of hostapd's keys.
func KeyTableMarkdown() string {
	var b strings.Builder
	b.WriteString("| keys | airq | what airq does, or why not |\n|---|---|---|\n")
	for _, r := range HostapdKeyRows() {
		shown := r.Shown
		if shown == "" {
			shown = "`" + strings.Join(r.Keys, "` `") + "`"
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", shown, r.Class, strings.ReplaceAll(r.Text, "|", "\\|"))
	}
	return b.String()
}
