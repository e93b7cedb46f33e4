unless $facts['kernel'] == 'Linux' { notice('other') } else { notice('linux') }
