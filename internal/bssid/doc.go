// Package bssid holds the rules for a radio's BSSIDs, once, for the
// configuration (what a file can be told before the radio is open) and
// for the bring-up (what the driver will ACK):
//
//   - Derive: hostapd 2.10's assignment (hostapd.c, hostapd_setup_bss): a
//     BSS without bssid= takes the address after the last one so derived;
//   - ValidateConfig: hostapd's own check of a configuration with derived
//     BSSIDs (hostapd_validate_bssid_configuration), the mask rule;
//   - Rule, DriverRule and Check: what each known driver's hardware ACKs
//     with several interfaces on one phy (the mask rule of ath5k/ath9k,
//     mt76x02's eight address slots, hwsim's any address);
//   - HolderName: the name of the interface that holds a BSS's BSSID.
//
// The package is pure: addresses in, addresses and errors out.
package bssid
