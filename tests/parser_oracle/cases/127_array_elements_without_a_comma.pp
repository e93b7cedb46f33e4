# A comma missing between two strings of an array: both strings close.
$packages = ['nodejs'
  'nodejs-legacy']
