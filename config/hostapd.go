package config

import (
	"fmt"
	"slices"
	"strings"
)

// hostapd's keys that airq does not act on, each classified (README.md,
// "hostapd's keys", lists them all):
//   - ignored: accepted with one warning, because the key changes nothing
//     for airq (logging, hostapd's control interface, U-APSD it does not
//     advertise) or cannot change it (the AP's own EDCA on a monitor
//     interface): the warning says which;
//   - accepted only for the value that is what airq does anyway
//     (eap_server=0, multi_ap=0, ...), with one warning; any other value
//     is refused with the reason, as for the refused keys;
//   - refused: the feature is missing, and running without it when it was
//     asked for must not happen silently (an open network where WPA2 was
//     configured, say).
// A key that airq implements moves from here to keys.go.

// unusedKey is how airq takes one of those keys.
type unusedKey struct {
	note   string   // the warning for an accepted value
	same   []string // the values accepted with the warning; nil: every value, unless refuse is set
	refuse string   // why the other values are refused; "": none is
}

// check is the problem the key's value makes, with whether it is only a
// warning.
func (u unusedKey) check(v string) (msg string, warn bool) {
	switch {
	case u.refuse == "":
		return "ignored: " + u.note, true
	case slices.Contains(u.same, strings.TrimSpace(v)):
		return fmt.Sprintf("ignored: %s %s", strings.TrimSpace(v), u.note), true
	case u.same != nil:
		return fmt.Sprintf("%q (only %s is accepted): %s", clip(v), strings.Join(u.same, " or "), u.refuse), false
	}
	return u.refuse, false
}

// The reasons for refusing, one per feature.
const (
	whyWPA3   = "not supported: OWE and PASN come after WPA3-Personal (SAE)"
	whyPMF    = "not supported: beacon protection and operating channel validation (OCV) come after 802.11w"
	whyFT     = "not supported: fast BSS transition (802.11r) needs WPA2 and a mobility domain of APs"
	whyFILS   = "not supported: FILS (802.11ai)"
	why8021X  = "not supported: 802.1X and EAP (WPA-Enterprise, hostapd's EAP server)"
	whyRADIUS = "not supported: airq has no RADIUS client or server"
	whyVLAN   = "not supported: airq has no per-station VLANs"
	whyWEP    = "not supported: WEP is broken (hostapd 2.10 builds without it by default)"
	whyWPS    = "not supported: Wi-Fi Protected Setup (give stations the passphrase, or a wpa_psk_file line each)"
	whyWDS    = "not supported: 4-address frames (WDS stations, Multi-AP backhaul)"
	whyHE     = "not supported: HE (802.11ax) and the 6 GHz band"
	whyWNM    = "not supported: WNM (802.11v: BSS transition, sleep mode, proxy ARP, time advertisement)"
	whyRRM    = "not supported: radio measurement (802.11k), neighbour reports and location (LCI, civic, FTM)"
	whyHS20   = "not supported: interworking (802.11u) and Hotspot 2.0"
	whyMBO    = "not supported: MBO and OCE"
	whyDPP    = "not supported: DPP (Wi-Fi Easy Connect)"
	whyP2P    = "not supported: Wi-Fi Direct (P2P) and TDLS policies"
	whyFST    = "not supported: fast session transfer between bands"
	whyDMG    = "not supported: 60 GHz (802.11ad/ay)"
	whyTest   = "not supported: hostapd's testing options"
	whySteer  = "not supported: band steering (refusing stations seen on another AP's interface)"
	whyElems  = "not supported: airq adds no extra elements to its frames"
	whyStas   = "not supported: airq refuses stations only by the access lists and max_num_sta"
)

// The notes of the values accepted because they are what airq does.
const (
	sameOff   = "(off) is what airq does: the line changes nothing"
	sameValue = "is what airq does: the line changes nothing"
)

// unused is every such key; classifiedTwice lists the keys the lists
// below name twice (a test keeps it empty).
var unused, classifiedTwice = buildUnused()

func buildUnused() (map[string]unusedKey, []string) {
	m := map[string]unusedKey{}
	var dups []string
	add := func(keys string, u unusedKey) {
		for _, k := range strings.Fields(keys) {
			if _, dup := m[k]; dup {
				dups = append(dups, k)
			}
			m[k] = u
		}
	}
	refused := func(why, keys string) { add(keys, unusedKey{refuse: why}) }
	sameOr := func(why, note, keys string, same ...string) {
		add(keys, unusedKey{refuse: why, note: note, same: same})
	}
	ignored := func(note, keys string) { add(keys, unusedKey{note: note}) }

	// WPA2-Personal's keys are in wpa.go; these two change nothing.
	ignored("airq draws each GTK from the system's random source; there is no GMK to rekey", "wpa_gmk_rekey")
	sameOr("not supported: the group cipher is CCMP, as rsn_pairwise's", sameValue, "group_cipher", "CCMP")
	// After WPA2.
	refused(whyWPA3, "owe_groups owe_ptk_workaround owe_transition_bssid owe_transition_ssid "+
		"owe_transition_ifname pasn_groups pasn_comeback_after")
	sameOr(whyPMF, sameOff, "beacon_prot ocv", "0")
	refused(whyFT, "mobility_domain ft_r0_key_lifetime r1_max_key_lifetime r1_key_holder reassociation_deadline r0kh r1kh "+
		"rkh_pos_timeout rkh_pull_timeout rkh_pull_retries rkh_neg_timeout pmk_r1_push ft_over_ds ft_psk_generate_local")
	refused(whyFILS, "fils_cache_id fils_realm fils_dh_group dhcp_server dhcp_server_port dhcp_relay_port "+
		"dhcp_rapid_commit_proxy fils_hlp_wait_time")

	// 802.1X, EAP and RADIUS.
	sameOr(why8021X, sameOff, "ieee8021x eap_server", "0")
	refused(why8021X, "eap_message eap_reauth_period use_pae_group_addr erp_send_reauth_start erp_domain eap_server_erp "+
		"eap_user_file ca_cert server_cert private_key private_key_passwd server_cert2 private_key2 private_key_passwd2 "+
		"server_id check_crl check_crl_strict check_cert_subject tls_session_lifetime tls_flags max_auth_rounds "+
		"max_auth_rounds_short ocsp_stapling_response ocsp_stapling_response_multi dh_file openssl_ciphers "+
		"openssl_ecdh_curves fragment_size pwd_group eap_sim_db eap_sim_db_timeout pac_opaque_encr_key eap_fast_a_id "+
		"eap_fast_a_id_info eap_fast_prov pac_key_lifetime pac_key_refresh_time eap_teap_auth eap_teap_pac_no_inner "+
		"eap_teap_separate_result eap_teap_id eap_sim_aka_result_ind eap_sim_id tnc rsn_preauth "+
		"rsn_preauth_interfaces")
	sameOr(why8021X, sameOff, "okc", "0")
	ignored("airq keeps no PMKSA cache: WPA-PSK has none to keep (802.1X and SAE do)", "disable_pmksa_caching")
	ignored("only 802.1X's EAPOL-Key frames use it, and 802.1X is not supported (ieee8021x)", "eapol_key_index_workaround")
	ignored("only RADIUS uses it, and airq has no RADIUS client", "own_ip_addr")
	ignored("only RADIUS and 802.11r use it, and airq implements neither", "nas_identifier")
	refused(whyRADIUS, "auth_server_addr auth_server_port auth_server_shared_secret acct_server_addr acct_server_port "+
		"acct_server_shared_secret radius_client_addr radius_client_dev radius_retry_primary_interval "+
		"radius_acct_interim_interval radius_request_cui radius_auth_req_attr radius_acct_req_attr radius_req_attr_sqlite "+
		"radius_das_port radius_das_client radius_das_time_window radius_das_require_event_timestamp "+
		"radius_das_require_message_authenticator radius_server_clients radius_server_auth_port radius_server_acct_port "+
		"radius_server_ipv6 wpa_psk_radius")
	sameOr(whyVLAN, sameOff, "dynamic_vlan per_sta_vif", "0")
	refused(whyVLAN, "vlan_file vlan_tagged_interface vlan_bridge vlan_naming")
	refused(whyWEP, "wep_default_key wep_key0 wep_key1 wep_key2 wep_key3 wep_key_len_broadcast wep_key_len_unicast wep_rekey_period")
	sameOr(whyWPS, sameOff, "wps_state", "0")
	refused(whyWPS, "wps_independent ap_setup_locked uuid wps_pin_requests device_name manufacturer model_name model_number "+
		"serial_number device_type os_version config_methods pbc_in_m1 ap_pin skip_cred_build extra_cred "+
		"wps_cred_processing wps_cred_add_sae ap_settings upnp_iface friendly_name manufacturer_url model_description "+
		"model_url upc wps_rf_bands wps_application_ext")

	addRadioKeys(sameOr, refused, ignored)
	addRestKeys(sameOr, refused, ignored)
	return m, dups
}

// addRadioKeys classifies hostapd's keys about the radio, the BSS and the
// 802.11 amendments airq does not implement.
func addRadioKeys(sameOr func(why, note, keys string, same ...string), refused func(why, keys string), ignored func(note, keys string)) {
	sameOr("airq drives mac80211 radios through nl80211 only", sameValue, "driver", "nl80211")
	ignored("airq logs to standard error (the journal under systemd): set log_level or -log-level",
		"logger_syslog logger_syslog_level logger_stdout logger_stdout_level")
	ignored("hostapd's control interface events: airqctl events streams connections instead", "notify_mgmt_frames")
	ignored("the AP's own EDCA parameters cannot be set on a monitor interface (nl80211 takes TX queue parameters only for AP and P2P-GO interfaces): airq's frames contend with mac80211's defaults; wmm_ac_* set what stations use",
		"tx_queue_data0_aifs tx_queue_data0_cwmin tx_queue_data0_cwmax tx_queue_data0_burst "+
			"tx_queue_data1_aifs tx_queue_data1_cwmin tx_queue_data1_cwmax tx_queue_data1_burst "+
			"tx_queue_data2_aifs tx_queue_data2_cwmin tx_queue_data2_cwmax tx_queue_data2_burst "+
			"tx_queue_data3_aifs tx_queue_data3_cwmin tx_queue_data3_cwmax tx_queue_data3_burst")
	ignored("airq sends a broadcast deauthentication when it stops, whatever the value", "broadcast_deauth")
	ignored("airq notices a station that left by its inactivity poll (ap_max_inactivity), not by failed transmissions", "disassoc_low_ack")
	ignored("airq keeps no table of neighbouring APs (its background scan has its own: scan=1, airqctl scan dump)",
		"ap_table_max_size ap_table_expiration_time")
	ignored("airq has no HE (802.11ax): there is nothing to disable", "disable_11ax")
	ignored("airq does not advertise U-APSD (it does not deliver frames by U-APSD triggers yet): stations save power with PS-Poll and the TIM",
		"uapsd_advertisement_enabled")
	ignored("airq does not use the 6 GHz band", "acs_exclude_6ghz_non_psc")
	sameOr("RTS/CTS is not supported: mac80211 takes no RTS request from an injected frame's radiotap header, and airq's airtime accounting counts none",
		"(off) is what airq does: it asks for no RTS/CTS", "rts_threshold", "-1")
	sameOr("fragmentation is not supported: airq sends every frame whole, and mac80211 does not fragment injected frames unless asked",
		"(off) is what airq does: it sends every frame whole", "fragm_threshold", "-1")

	sameOr(whyWDS, sameOff, "wds_sta multi_ap", "0")
	refused(whyWDS, "wds_bridge multi_ap_backhaul_ssid multi_ap_backhaul_wpa_psk multi_ap_backhaul_wpa_passphrase")
	sameOr(whyHE, sameOff, "ieee80211ax unsol_bcast_probe_resp_interval fils_discovery_min_interval fils_discovery_max_interval", "0")
	refused(whyHE, "he_su_beamformer he_su_beamformee he_mu_beamformer he_bss_color he_bss_color_partial "+
		"he_default_pe_duration he_twt_required he_twt_responder he_rts_threshold he_er_su_disable "+
		"he_mu_edca_qos_info_queue_request he_spr_srg_bss_colors he_spr_srg_partial_bssid he_6ghz_max_mpdu "+
		"he_6ghz_max_ampdu_len_exp he_6ghz_rx_ant_pat he_6ghz_tx_ant_pat")
	for _, ac := range []string{"be", "bk", "vi", "vo"} {
		refused(whyHE, fmt.Sprintf("he_mu_edca_ac_%[1]s_aifsn he_mu_edca_ac_%[1]s_aci he_mu_edca_ac_%[1]s_ecwmin "+
			"he_mu_edca_ac_%[1]s_ecwmax he_mu_edca_ac_%[1]s_timer", ac))
	}
	sameOr(whyWNM, sameOff, "bss_transition wnm_sleep_mode wnm_sleep_mode_no_keys time_advertisement proxy_arp na_mcast_to_ucast", "0")
	refused(whyWNM, "time_zone")
	sameOr(whyRRM, sameOff, "rrm_neighbor_report rrm_beacon_report ftm_responder ftm_initiator stationary_ap rnr", "0")
	refused(whyRRM, "lci civic")
	sameOr(whyHS20, sameOff, "interworking hs20 disable_dgaf osen", "0")
	refused(whyHS20, "access_network_type internet asra esr uesa venue_group venue_type hessid roaming_consortium "+
		"venue_name venue_url network_auth_type ipaddr_type_availability domain_name anqp_3gpp_cell_net nai_realm "+
		"anqp_elem gas_address3 qos_map_set anqp_domain_id hs20_deauth_req_timeout hs20_oper_friendly_name "+
		"hs20_conn_capab hs20_wan_metrics hs20_operating_class hs20_t_c_filename hs20_t_c_timestamp "+
		"hs20_t_c_server_url hs20_icon osu_ssid osu_server_uri osu_friendly_name osu_nai osu_nai2 osu_method_list "+
		"osu_icon osu_service_desc operator_icon")
	sameOr(whyMBO, sameOff, "mbo oce", "0")
	refused(whyMBO, "mbo_cell_data_conn_pref rssi_reject_assoc_rssi rssi_reject_assoc_timeout rssi_ignore_probe_request")
	refused(whyDPP, "dpp_name dpp_mud_url dpp_configurator_connectivity dpp_pfs")
	sameOr(whyP2P, sameOff, "manage_p2p allow_cross_connection tdls_prohibit tdls_prohibit_chan_switch", "0")
	refused(whyFST, "fst_group_id fst_priority fst_llt")
	sameOr(whyDMG, sameOff, "enable_edmg", "0")
	refused(whyDMG, "edmg_channel")
	sameOr(whyTest, sameOff, "ignore_probe_probability ignore_auth_probability ignore_assoc_probability "+
		"ignore_reassoc_probability corrupt_gtk_rekey_mic_probability", "0", "0.0")
	sameOr(whyTest, sameOff, "ecsa_ie_only", "0")
	refused(whySteer, "track_sta_max_num track_sta_max_age no_probe_resp_if_seen_on no_auth_if_seen_on")
	addBSSKeys(sameOr, refused)
}

// addBSSKeys classifies hostapd's remaining keys about the BSS.
func addBSSKeys(sameOr func(why, note, keys string, same ...string), refused func(why, keys string)) {
	refused("not supported: airq takes its channel from channel= and hw_mode=, not from an operating class", "op_class")
	sameOr("not supported: automatic channel selection does not rank channels by their power limit", sameOff, "min_tx_power", "0")
	refused(whyElems, "vendor_elements assocresp_elements")
	refused("not supported: airq sends no test BSS Load element", "bss_load_test")
	sameOr(whyStas, sameOff, "require_ht require_vht no_probe_resp_if_max_sta", "0")
	sameOr(whyStas, "(no limit) is what airq does: the line changes nothing", "max_listen_interval", "65535")
	sameOr("not supported: airq polls a silent station before it lets it go", sameOff, "skip_inactivity_poll", "0")
	sameOr("not supported: airq beacons from the start", sameOff, "start_disabled", "0")
	sameOr("not supported: the Country element says all environments (0x20)", sameValue, "country3", "0x20")
	sameOr("not supported: 80+80 MHz channels", sameOff, "vht_oper_centr_freq_seg1_idx", "0")
	sameOr("not supported: beamforming", sameOff, "use_sta_nsts", "0")
}
