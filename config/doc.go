// Package config reads airqd's configuration file: hostapd.conf's keys, as
// far as airq implements them, plus airq's own. Lines are split as hostapd
// splits them (file.go): '#' first on a line starts a comment, and a line
// is the key before its first '=' and the value after it, both as written.
// Later lines override earlier ones (aql_txq_limit lines merge, and
// repeated access list files add to the list).
//
// Every key airq implements is declared once, in the table of keys.go
// (with wmm.go's, the HT/VHT keys and compat.go's, the keys tutorials and
// router firmware write), with the flags that override it, whether SIGHUP
// applies it live, what it accepts, and its setter into Settings.
// hostapd's other keys are classified in hostapd.go and hostapdkeys.go:
// ignored with one warning, accepted only for the value airq runs with, or
// refused with the reason. Together they answer every key hostapd 2.10's
// parser accepts (testdata/hostapd-2.10-keys.txt), and keytable.go makes
// the README's table of them. A check reports every problem at once (Problems), each
// naming the file, the line, the key and what to do; warnings do not stop
// airqd. An unknown key gets its near misses.
//
// A file is sections, as hostapd reads it (section.go): the lines before
// the first bss=NAME line configure the radio and its first BSS, each
// bss= line starts another BSS's, which takes BSS keys only (bsskeys.go
// classifies every key as hostapd keeps it, in struct hostapd_config or
// struct hostapd_bss_config) and starts from hostapd's defaults for a
// BSS. Settings carry the radio and the first BSS, Settings.BSSes the
// others; a problem in a file of several BSSes names its section. BSSIDs
// not given are derived as hostapd derives them (bssid.go). What airqd
// does not serve yet, a second BSS and an airtime policy, is refused in
// one place (served.go).
//
// The daemon parses its flags into Settings, applies the file over them
// (Load: a flag given on the command line wins over its key), checks what
// spans several settings (Settings.CorePHY and the daemon's own checks,
// placed at the file's lines by File.Explain) and turns them into the
// core's and the radio's options.
package config
