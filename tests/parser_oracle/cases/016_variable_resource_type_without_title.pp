$type = File
$type { mode => '0644' }
