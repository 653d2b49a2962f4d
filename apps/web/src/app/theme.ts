import { createTheme } from '@mui/material/styles';

export const theme = createTheme({
  palette: {
    primary: { main: '#b3261e' },
    secondary: { main: '#1f3b63' },
  },
  transitions: {
    // Spec §9: fade 300 ms, backdrop 150 ms.
    duration: { enteringScreen: 300, leavingScreen: 150 },
  },
  components: {
    MuiButton: { styleOverrides: { root: { textTransform: 'none' } } },
  },
});
