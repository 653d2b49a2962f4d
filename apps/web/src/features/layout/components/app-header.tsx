// Top bar of spec §2: logo, service title, "Welcome <name>" and a dropdown with Logout.
import { useState, type MouseEvent } from 'react';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import MenuIcon from '@mui/icons-material/Menu';
import { BrandLogo } from '../../../components/brand-logo';
import { CONSOLE_TITLE } from '../../../config/brand';

interface AppHeaderProps {
  userName: string;
  showMenuButton: boolean;
  isMenuOpen: boolean;
  onToggleMenu: () => void;
  onLogout: () => void;
}

export function AppHeader({ userName, showMenuButton, isMenuOpen, onToggleMenu, onLogout }: AppHeaderProps) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const openAccountMenu = (event: MouseEvent<HTMLElement>) => setAnchor(event.currentTarget);
  const closeAccountMenu = () => setAnchor(null);

  return (
    <AppBar position="fixed" sx={{ zIndex: (theme) => theme.zIndex.drawer + 1 }}>
      <Toolbar sx={{ gap: 1.5 }}>
        {showMenuButton ? (
          <IconButton
            color="inherit"
            edge="start"
            aria-label={isMenuOpen ? 'Close menu' : 'Open menu'}
            aria-expanded={isMenuOpen}
            onClick={onToggleMenu}
          >
            <MenuIcon />
          </IconButton>
        ) : null}
        <BrandLogo size={36} />
        <Typography variant="h6" component="div" noWrap sx={{ flexGrow: 1 }}>
          {CONSOLE_TITLE}
        </Typography>
        <Box sx={{ display: 'flex', alignItems: 'center' }}>
          <Button
            color="inherit"
            id="account-button"
            aria-haspopup="menu"
            aria-controls={anchor ? 'account-menu' : undefined}
            aria-expanded={anchor ? 'true' : undefined}
            endIcon={<ArrowDropDownIcon />}
            onClick={openAccountMenu}
            sx={{ textTransform: 'none', minWidth: 0, maxWidth: { xs: 170, sm: 'none' } }}
          >
            {/* One line always: on a phone a long name ends in an ellipsis instead of growing the bar. */}
            <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
              Welcome {userName}
            </Box>
          </Button>
          <Menu
            id="account-menu"
            anchorEl={anchor}
            open={Boolean(anchor)}
            onClose={closeAccountMenu}
            slotProps={{ list: { 'aria-labelledby': 'account-button' } }}
            // Toasts open just below the header, where this menu drops down: Logout stays above them.
            sx={{ zIndex: (theme) => theme.zIndex.snackbar + 1 }}
          >
            <MenuItem
              onClick={() => {
                closeAccountMenu();
                onLogout();
              }}
            >
              Logout
            </MenuItem>
          </Menu>
        </Box>
      </Toolbar>
    </AppBar>
  );
}
