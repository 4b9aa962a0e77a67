// Command hostapdkeys lists the keys hostapd's configuration parser
// accepts, one a line, sorted: every name hostapd_config_fill() in
// hostapd/config_file.c compares a line's key with, and the keys its
// prefix comparisons stand for (tx_queue_data0_aifs ... wmm_ac_vo_acm).
// config/testdata/hostapd-2.10-keys.txt is its output for hostapd 2.10:
//
//	git -C HOSTAP show hostap_2_10:hostapd/config_file.c | go run ./internal/tools/hostapdkeys > config/testdata/hostapd-2.10-keys.txt
//
// where HOSTAP is a clone of git://w1.fi/hostap.git. Every key is listed,
// also those under a build option (CONFIG_SAE, CONFIG_IEEE80211AX, ...):
// a distribution's build may enable any of them.
package main
