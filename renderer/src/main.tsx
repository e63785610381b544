import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { AppProvider } from './context';
import { pickTransport } from './transport/pick';
import './styles.css';

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <AppProvider transport={pickTransport()}>
      <App />
    </AppProvider>
  </StrictMode>,
);
