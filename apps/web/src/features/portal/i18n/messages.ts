// The portal's own words in Canada's two official languages. Server failures are shown by their code in the
// customer's language; a code without words here shows the server's (English) message.
import { TRACK_ORDER_MESSAGES, type ErrorCode } from '@eta/contracts/domain';

export const LANGUAGES = ['en', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];

const en = {
  languageName: 'English',
  switchTo: 'Français',
  switchLabel: 'Afficher en français',
  siteMenu: 'Site menu',
  trackTitle: 'Download your Electronic Travel Authorization (eTA)',
  trackIntro: 'Enter the Order ID from your confirmation e-mail and the e-mail address you applied with.',
  orderId: 'Order ID',
  emailId: 'Email ID',
  orderIdRequired: TRACK_ORDER_MESSAGES.orderIdRequired as string,
  emailRequired: TRACK_ORDER_MESSAGES.emailRequired as string,
  trackButton: 'TRACK ORDER',
  tracking: 'Checking…',
  contactSupport: 'Contact Support',
  orderFound: 'Your order has been found.',
  downloadTitle: 'Download your eTA',
  foundMessage: (orderId: string) => `Your order ${orderId} has been found.`,
  readyMessage: 'Your Electronic Travel Authorization is ready to download.',
  applicationNumber: (number: string) => `Application number: ${number}.`,
  validUntil: (date: string) => `Valid until ${date}.`,
  processingMessage:
    'Your application is still being processed. You will receive an e-mail as soon as your eTA is ready, and you can download it here.',
  preparingMessage:
    'Your application has been approved. Your eTA document is being prepared: you will receive an e-mail as soon as it is ready, and you can download it here.',
  downloadNow: 'Download Now',
  downloadStarting: 'Your download will start in a moment.',
  downloadedHistory: 'Downloaded History',
  noDownloads: 'Your eTA has not been downloaded yet.',
  loading: 'Loading…',
  trackAgainNotice: 'Please track your order with its Order ID and e-mail address to open its download page.',
  trackAnother: 'Track another order',
  columns: {
    index: '#',
    orderId: 'Order ID',
    date: 'Date & Time (EST)',
    ip: 'Device IP Address',
    device: 'Device',
    deviceType: 'Device Type',
    browser: 'Browser',
    os: 'OS',
    location: 'Device Location',
  },
  faqTitle: 'Frequently asked questions',
  faq: [
    {
      q: 'Where do I find my Order ID?',
      a: 'It is in the confirmation e-mail we sent after your payment, and in the e-mail that tells you your eTA is approved. It looks like ETA-200020076.',
    },
    {
      q: 'Which e-mail address should I enter?',
      a: 'The address you gave in your application. Upper or lower case does not matter.',
    },
    {
      q: 'My eTA is not ready yet. What happens next?',
      a: 'Most applications are decided within a few days. We e-mail you as soon as your eTA is approved; you can then download it from the tracking page.',
    },
    {
      q: 'Can I download my eTA more than once?',
      a: 'Yes. Each download is listed in the Downloaded History on your order’s page.',
    },
    {
      q: 'Is this a government website?',
      a: 'No. We are a private service that helps travellers apply. The official information is on the Government of Canada’s website.',
    },
  ],
  officialInfo: 'Official eTA information (Government of Canada)',
  contactTitle: 'Contact us',
  contactIntro: 'Questions about your application or your download? Write to us and quote your Order ID.',
  contactEmail: 'E-mail',
  contactPhone: 'Phone',
  notFoundTitle: 'Page not found',
  notFoundText: 'This page does not exist. You can track your order from here:',
  rightsReserved: 'All rights reserved.',
  contact: 'Contact',
  phone: 'Phone',
  translateBar: 'Translate this page',
  networkError: 'We could not reach our server. Please check your connection and try again.',
  tooManyAttempts: (minutes: number) =>
    `Too many attempts to track an order. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again, or contact support.`,
  errors: {
    ORDER_NOT_FOUND:
      'We could not find an order with this Order ID and e-mail address. Please check both against your confirmation e-mail.',
    ORDER_DELETED: 'This order has been cancelled and cannot be tracked. Please contact support.',
    NOT_PAID: 'The payment for this order has not been completed, so it cannot be tracked. Please contact support.',
    TRACK_PROOF_REQUIRED: 'Please track your order again with its Order ID and e-mail address.',
    NO_DOCUMENT: 'Your eTA is not ready yet. Please try again later.',
    DOCUMENT_CHANGED: 'Your eTA document has been updated. Please reload the page.',
  } as Partial<Record<ErrorCode, string>>,
};

export type Messages = typeof en;

const fr: Messages = {
  languageName: 'Français',
  switchTo: 'English',
  switchLabel: 'Show in English',
  siteMenu: 'Menu du site',
  trackTitle: 'Téléchargez votre autorisation de voyage électronique (AVE)',
  trackIntro:
    'Saisissez le numéro de commande de votre courriel de confirmation et l’adresse courriel de votre demande.',
  orderId: 'Numéro de commande',
  emailId: 'Adresse courriel',
  orderIdRequired: 'Veuillez saisir votre numéro de commande',
  emailRequired: 'Veuillez saisir votre adresse courriel',
  trackButton: 'SUIVRE LA COMMANDE',
  tracking: 'Vérification…',
  contactSupport: 'Contacter le soutien',
  orderFound: 'Votre commande a été trouvée.',
  downloadTitle: 'Téléchargez votre AVE',
  foundMessage: (orderId: string) => `Votre commande ${orderId} a été trouvée.`,
  readyMessage: 'Votre autorisation de voyage électronique est prête à être téléchargée.',
  applicationNumber: (number: string) => `Numéro de demande : ${number}.`,
  validUntil: (date: string) => `Valide jusqu’au ${date}.`,
  processingMessage:
    'Votre demande est en cours de traitement. Vous recevrez un courriel dès que votre AVE sera prête et vous pourrez la télécharger ici.',
  preparingMessage:
    'Votre demande a été approuvée. Le document de votre AVE est en préparation : vous recevrez un courriel dès qu’il sera prêt et vous pourrez le télécharger ici.',
  downloadNow: 'Télécharger',
  downloadStarting: 'Votre téléchargement va commencer.',
  downloadedHistory: 'Historique des téléchargements',
  noDownloads: 'Votre AVE n’a pas encore été téléchargée.',
  loading: 'Chargement…',
  trackAgainNotice:
    'Veuillez suivre votre commande avec son numéro et votre adresse courriel pour ouvrir sa page de téléchargement.',
  trackAnother: 'Suivre une autre commande',
  columns: {
    index: 'N°',
    orderId: 'Numéro de commande',
    date: 'Date et heure (HNE)',
    ip: 'Adresse IP de l’appareil',
    device: 'Appareil',
    deviceType: 'Type d’appareil',
    browser: 'Navigateur',
    os: 'Système',
    location: 'Emplacement',
  },
  faqTitle: 'Foire aux questions',
  faq: [
    {
      q: 'Où trouver mon numéro de commande?',
      a: 'Il figure dans le courriel de confirmation envoyé après votre paiement et dans celui qui annonce l’approbation de votre AVE. Il ressemble à ETA-200020076.',
    },
    {
      q: 'Quelle adresse courriel dois-je saisir?',
      a: 'Celle que vous avez donnée dans votre demande. Les majuscules et minuscules n’ont pas d’importance.',
    },
    {
      q: 'Mon AVE n’est pas encore prête. Que se passe-t-il ensuite?',
      a: 'La plupart des demandes sont traitées en quelques jours. Nous vous écrivons dès que votre AVE est approuvée; vous pouvez alors la télécharger depuis la page de suivi.',
    },
    {
      q: 'Puis-je télécharger mon AVE plusieurs fois?',
      a: 'Oui. Chaque téléchargement figure dans l’historique des téléchargements de votre commande.',
    },
    {
      q: 'Ce site est-il un site du gouvernement?',
      a: 'Non. Nous sommes un service privé qui aide les voyageurs à présenter leur demande. L’information officielle se trouve sur le site du gouvernement du Canada.',
    },
  ],
  officialInfo: 'Information officielle sur l’AVE (gouvernement du Canada)',
  contactTitle: 'Nous joindre',
  contactIntro:
    'Des questions sur votre demande ou votre téléchargement? Écrivez-nous en indiquant votre numéro de commande.',
  contactEmail: 'Courriel',
  contactPhone: 'Téléphone',
  notFoundTitle: 'Page introuvable',
  notFoundText: 'Cette page n’existe pas. Vous pouvez suivre votre commande ici :',
  rightsReserved: 'Tous droits réservés.',
  contact: 'Contact',
  phone: 'Téléphone',
  translateBar: 'Traduire cette page',
  networkError: 'Impossible de joindre notre serveur. Vérifiez votre connexion et réessayez.',
  tooManyAttempts: (minutes: number) =>
    `Trop de tentatives de suivi. Veuillez patienter ${minutes} minute${minutes === 1 ? '' : 's'} et réessayer, ou contacter le soutien.`,
  errors: {
    ORDER_NOT_FOUND:
      'Aucune commande ne correspond à ce numéro et à cette adresse courriel. Vérifiez-les dans votre courriel de confirmation.',
    ORDER_DELETED: 'Cette commande a été annulée et ne peut pas être suivie. Veuillez contacter le soutien.',
    NOT_PAID:
      'Le paiement de cette commande n’a pas abouti; elle ne peut donc pas être suivie. Veuillez contacter le soutien.',
    TRACK_PROOF_REQUIRED: 'Veuillez suivre de nouveau votre commande avec son numéro et votre adresse courriel.',
    NO_DOCUMENT: 'Votre AVE n’est pas encore prête. Veuillez réessayer plus tard.',
    DOCUMENT_CHANGED: 'Votre AVE a été mise à jour. Veuillez recharger la page.',
  },
};

export const MESSAGES: Record<Language, Messages> = { en, fr };

/** The browser's first choice among the two, English otherwise. */
export function languageFromBrowser(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0];
    if (base === 'fr' || base === 'en') return base;
  }
  return 'en';
}
