File { , mode => '0644' }
Package { , }
Service <| |> { , enable => true }
class { 'demo':, }
class demo { }
