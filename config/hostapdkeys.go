package config

import (
	"slices"
	"strings"
)

// Every key hostapd 2.10's parser accepts (testdata/hostapd-2.10-keys.txt,
// the output of internal/tools/hostapdkeys) has an answer in airq: a key
// of keys.go (honoured), or one of hostapd.go's classes (ignored with a
// warning, accepted only for one value, refused). This file classifies
// the keys the other lists leave out: deprecated ones hostapd itself
// ignores, and build options few configurations use. A test holds the
// union to exactly that list, plus airq's own keys.

// ownKeys are airq's keys, which hostapd does not have.
var ownKeys = strings.Fields(`airtime_bss_cap airtime_weight amsdu aql_threshold aql_txq_limit assoc_resp_timeout auth_timeout
	control idle_release inflight_per_ac log_level memory_limit metrics nice pcap phy radio
	scan scan_budget scan_guard scan_max_defer_time scan_max_defers scan_miss_beacon scan_mode scan_period
	sender_memory sim_join sim_retune sim_retune_jitter sim_scenario sim_stations status_wait tap tap_offload`)

// newerKeys are hostapd's keys newer than 2.10 that airq reads (hostapd
// 2.11's, the reference for WPA3-Personal).
var newerKeys = strings.Fields(`sae_password_file`)

// openWrtKeys are keys of OpenWrt's hostapd, which upstream hostapd does
// not have, that airq reads (OpenWrt writes them from its wireless
// configuration).
var openWrtKeys = strings.Fields(`noscan`)

// IsOwnKey reports whether key is airq's own, not hostapd's.
func IsOwnKey(key string) bool { return slices.Contains(ownKeys, key) }

// addRestKeys classifies the rest of hostapd 2.10's keys.
func addRestKeys(sameOr func(why, note, keys string, same ...string), refused func(why, keys string), ignored func(note, keys string)) {
	ignored("hostapd 2.10 ignores it too (deprecated)", "debug dump_file iapp_interface peerkey")
	ignored("airq passes no parameters to the driver", "driver_params")
	ignored("the BSSID is bssid= or the phy's address (-bssid)", "use_driver_iface_addr")
	ignored("an AP does not suspend: there is nothing to wake it", "wowlan_triggers")
	refused(whyRADIUS, "auth_server_addr_replace acct_server_addr_replace")
	refused(why8021X, "crl_reload_interval dump_msk_file eap_authenticator")
	refused("not supported: MACsec and MKA (802.1X-2010)", "macsec_policy macsec_integ_only macsec_replay_protect "+
		"macsec_replay_window macsec_port mka_priority mka_cak mka_ckn")
	refused(whyDPP, "dpp_connector dpp_netaccesskey dpp_netaccesskey_expiry dpp_csign dpp_controller")
	refused(whyWPS, "wps_nfc_dev_pw_id wps_nfc_dh_pubkey wps_nfc_dh_privkey wps_nfc_dev_pw")
	refused(whyFT, "r0_key_lifetime ft_rsnxe_used")
	sameOr(whyWNM, sameOff, "coloc_intf_reporting", "0")
	sameOr(whyRRM, sameOff, "radio_measurements", "0")
	refused(whyHS20, "gas_frag_limit gas_comeback_delay hs20_release hs20_sim_provisioning_url "+
		"subscr_remediation_url subscr_remediation_method")
	refused(whyHE, "he_basic_mcs_nss_set he_oper_chwidth he_oper_centr_freq_seg0_idx he_oper_centr_freq_seg1_idx "+
		"he_mu_edca_qos_info_param_count he_mu_edca_qos_info_q_ack he_mu_edca_qos_info_txop_request "+
		"he_mu_edca_ac_be_acm he_mu_edca_ac_bk_acm he_mu_edca_ac_vi_acm he_mu_edca_ac_vo_acm "+
		"he_spr_sr_control he_spr_non_srg_obss_pd_max_offset he_spr_srg_obss_pd_min_offset he_spr_srg_obss_pd_max_offset")
	sameOr(whyDMG, sameOff, "pbss", "0")
	sameOr("not supported: VHT on 2.4 GHz (a vendor extension)", sameOff, "vendor_vht", "0")
	sameOr("not supported: airq answers every probe request itself", "(on) is what airq does: the line changes nothing",
		"send_probe_response", "1")
	refused(whyTest, "ext_capa ext_capa_mask own_ie_override sae_reflection_attack sae_commit_status sae_pk_omit "+
		"sae_pk_password_check_skip sae_commit_override rsne_override_eapol rsnxe_override_eapol rsne_override_ft "+
		"rsnxe_override_ft gtk_rsc_override igtk_rsc_override no_beacon_rsnxe skip_prune_assoc force_kdk_derivation "+
		"pasn_corrupt_mic rsn_testing oci_freq_override_eapol_m3 oci_freq_override_eapol_g1 "+
		"oci_freq_override_saquery_req oci_freq_override_saquery_resp oci_freq_override_ft_assoc "+
		"oci_freq_override_fils_assoc oci_freq_override_wnm_sleep")
}
