package config

import (
	"strings"

	"github.com/airq/airq/ap"
	"github.com/airq/airq/bss"
	"github.com/airq/airq/internal/ieee80211"
)

// Every key of keys.go is a radio key or a BSS key, as hostapd 2.10 keeps
// it in struct hostapd_config (the radio: channel, rates, HT/VHT, the
// stations' EDCA parameters wmm_ac_*, airtime_mode) or in struct
// hostapd_bss_config (one network: its SSID, BSSID, security, access
// lists, wired side, DTIM period). airq's own keys follow what they
// configure: the scheduler, the monitor interface, scans and the daemon
// are the radio's; the TAP and the admission timers are a BSS's. A bss=
// section takes BSS keys only; the first section, before any bss= line,
// takes both.

// bssKeyNames are the BSS keys; every other key is the radio's.
var bssKeyNames = strings.Fields(`ssid ssid2 bssid bridge tap ignore_broadcast_ssid utf8_ssid
	dtim_period max_num_sta ap_isolate multicast_to_unicast ap_max_inactivity auth_algs
	macaddr_acl accept_mac_file deny_mac_file wmm_enabled wme_enabled disable_11n disable_11ac
	bss_load_update_period chan_util_avg_period ctrl_interface ctrl_interface_group
	wpa wpa_passphrase wpa_psk wpa_psk_file wpa_key_mgmt rsn_pairwise wpa_pairwise wpa_group_rekey
	wpa_ptk_rekey wpa_strict_rekey wpa_disable_eapol_key_retries wpa_deny_ptk0_rekey
	wpa_pairwise_update_count wpa_group_update_count eapol_version extended_key_id
	sae_password sae_password_file sae_groups sae_pwe sae_require_mfp sae_confirm_immediate sae_sync
	anti_clogging_threshold sae_anti_clogging_threshold transition_disable
	ieee80211w group_mgmt_cipher assoc_sa_query_max_timeout assoc_sa_query_retry_timeout
	auth_timeout assoc_resp_timeout
	airtime_bss_weight airtime_bss_limit airtime_sta_weight airtime_bss_cap`)

// IsBSSKey reports whether key configures one BSS (a bss= section may set
// it) rather than the radio.
func IsBSSKey(key string) bool { return bssKeys[key] }

var bssKeys = func() map[string]bool {
	m := map[string]bool{}
	for _, k := range bssKeyNames {
		m[k] = true
	}
	return m
}()

// DefaultMaxStations is hostapd's MAX_STA_COUNT, a BSS's max_num_sta
// unless set.
const DefaultMaxStations = 2007

// bssStart is where a bss= section named name starts: the radio's
// settings of radio and hostapd's defaults for a BSS
// (hostapd_config_defaults_bss) in every BSS setting: hostapd 2.10's
// sections inherit nothing from the first (its hostapd.conf says they
// do, its parser does not), and neither do airq's. The BSS's TAP is named
// after it.
func bssStart(radio *Settings, name string) Settings {
	b := *radio
	b.BSSes = nil
	b.BSSID, b.Bridge, b.Tap = "", "", name
	b.CtrlInterface, b.CtrlGroup = "", ""
	b.BSSAirtime = BSSAirtime{}
	b.Core = bssCore(radio.Core)
	return b
}

// bssCore is the core's configuration with hostapd's defaults in every
// BSS field: only the radio's fields are kept.
func bssCore(radio ap.Config) ap.Config {
	c := radio
	c.SSID, c.BSSID, c.HideSSID = "", ieee80211.MAC{}, false
	c.DTIMPeriod, c.MaxStations, c.WMM = 2, DefaultMaxStations, true
	c.APIsolate, c.MulticastToUnicast, c.InactivityTimeout = false, false, 0
	c.NoHT, c.NoVHT = false, false
	c.ACL, c.RSN = bss.ACL{}, nil
	c.Advert.UTF8SSID, c.Advert.BSSLoadPeriod, c.Advert.ChanUtilAvgPeriod = false, 0, 0
	c.AuthTimeout, c.AssocResponseTimeout = 0, 0
	return c
}
