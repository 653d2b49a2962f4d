// Reference material for demo orders: applicant countries with their names, cities, streets, telephone,
// passport and postcode formats, plus the occupations, browsers and remark texts orders are built from.
import type { ProcessStatus } from '@eta/contracts';

export interface NamePool {
  male: readonly string[];
  female: readonly string[];
  surnames: readonly string[];
  /** Languages whose surnames change with gender (Polish Kowalska, Czech Nováková, Greek Papadopoulou). */
  femaleSurnames?: readonly string[];
}

/** [city, state/region, postcode pattern] — patterns as in Random.pattern. */
export type City = readonly [string, string, string];

export interface Country {
  name: string;
  iso3: string;
  /** Dialling code without '+'. */
  dial: string;
  timezone: string;
  /** Share of all orders (relative weight). */
  weight: number;
  names: NamePool;
  cities: readonly City[];
  streets: readonly string[];
  /** National significant number patterns of mobile phones. */
  phones: readonly string[];
  passport: string;
  mailDomains: readonly string[];
  companySuffix: string;
  /** Probability that the applicant prefers French over English. */
  french: number;
  /** Citizens need a visa unless they hold a US green card, so every applicant lives in the United States. */
  usPermanentResidents?: boolean;
}

/** "a, b, c" → ['a', 'b', 'c']: keeps the long name and street lists one line each. */
const list = (items: string): string[] => items.split(', ');

const british: NamePool = {
  male: list('Oliver, James, William, Thomas, George, Harry, Jack, Daniel, Samuel, Matthew, Imran, Rhys'),
  female: list('Olivia, Amelia, Emily, Charlotte, Sophie, Jessica, Hannah, Grace, Lucy, Chloe, Aisha, Freya'),
  surnames: list(
    'Smith, Jones, Taylor, Brown, Williams, Wilson, Davies, Evans, Thomas, Roberts, Walker, Wright, Patel, Khan, Hughes, Campbell',
  ),
};
const irish: NamePool = {
  male: list('Conor, Seán, Cian, Oisín, Darragh, Patrick, Liam, Eoin, Ciarán, Fionn'),
  female: list('Aoife, Niamh, Saoirse, Ciara, Siobhán, Róisín, Orla, Caoimhe, Sinéad, Emma'),
  surnames: list("Murphy, Kelly, O'Sullivan, Walsh, O'Brien, Byrne, Ryan, O'Connor, McCarthy, Doyle, Gallagher"),
};
const australian: NamePool = {
  male: list('Liam, Noah, Lachlan, Cooper, Jack, Oliver, Ethan, Mitchell, Hamish, Minh'),
  female: list('Isla, Ruby, Matilda, Charlotte, Mia, Zoe, Chloe, Sienna, Georgia, Linh'),
  surnames: list('Smith, Jones, Williams, Brown, Wilson, Taylor, Nguyen, Kelly, Campbell, Anderson, Mitchell, Tran'),
};
const kiwi: NamePool = {
  male: list('Oliver, Jack, Nikau, Tane, Leo, Hunter, Finn, Tama, George, Mason'),
  female: list('Isla, Aroha, Mere, Amelia, Olivia, Ruby, Ava, Anahera, Harper, Lily'),
  surnames: list('Smith, Wilson, Williams, Brown, Ngata, Parata, Taylor, Thompson, Walker, Te Whare, Robinson'),
};
const french: NamePool = {
  male: list('Lucas, Hugo, Louis, Gabriel, Théo, Nicolas, Julien, Antoine, Mathieu, Étienne, Karim, Baptiste'),
  female: list('Emma, Léa, Chloé, Manon, Camille, Inès, Julie, Céline, Margaux, Élodie, Amandine, Nadia'),
  surnames: list(
    'Martin, Bernard, Dubois, Thomas, Robert, Richard, Petit, Durand, Leroy, Moreau, Lefèvre, Girard, Fontaine, Benali',
  ),
};
const belgian: NamePool = {
  male: list('Arthur, Louis, Noah, Jules, Wout, Lars, Maxime, Thibaut, Pieter, Adrien'),
  female: list('Olivia, Louise, Marie, Lotte, Elise, Charlotte, Fien, Amélie, Hanne, Juliette'),
  surnames: list('Peeters, Janssens, Maes, Jacobs, Mertens, Willems, Claes, Dupont, Lambert, Dubois, Goossens'),
};
const swiss: NamePool = {
  male: list('Luca, Noah, Reto, Beat, Urs, Marco, David, Nicolas, Jonas, Samuel'),
  female: list('Mia, Lara, Nina, Seraina, Corinne, Laura, Anna, Léa, Andrea, Chiara'),
  surnames: list('Müller, Meier, Schmid, Keller, Weber, Huber, Brunner, Baumann, Frei, Gerber, Rossi, Favre'),
};
const german: NamePool = {
  male: list('Lukas, Maximilian, Jonas, Leon, Felix, Paul, Tobias, Stefan, Jürgen, Florian, Emre, Niklas'),
  female: list('Anna, Lena, Laura, Sophie, Hannah, Katrin, Julia, Sabine, Mia, Lea, Elif, Franziska'),
  surnames: list(
    'Müller, Schmidt, Schneider, Fischer, Weber, Meyer, Wagner, Becker, Schulz, Hoffmann, Koch, Schäfer, Yılmaz, Zimmermann',
  ),
};
const austrian: NamePool = {
  male: list('Lukas, David, Tobias, Florian, Markus, Andreas, Johannes, Matthias, Elias, Stefan'),
  female: list('Anna, Katharina, Lena, Sarah, Magdalena, Theresa, Julia, Verena, Johanna, Elisabeth'),
  surnames: list('Gruber, Huber, Bauer, Wagner, Müller, Pichler, Steiner, Moser, Mayer, Hofer, Leitner'),
};
const dutch: NamePool = {
  male: list('Daan, Sem, Lucas, Bram, Thijs, Jeroen, Pieter, Ruben, Joost, Mohamed'),
  female: list('Emma, Julia, Sanne, Fleur, Anouk, Lieke, Femke, Eva, Marloes, Noor'),
  surnames: list(
    'de Jong, Jansen, de Vries, van den Berg, van Dijk, Bakker, Visser, Smit, Meijer, de Boer, Mulder, Bos',
  ),
};
const italian: NamePool = {
  male: list('Leonardo, Francesco, Alessandro, Lorenzo, Matteo, Marco, Giuseppe, Andrea, Davide, Luca'),
  female: list('Sofia, Giulia, Aurora, Alice, Chiara, Francesca, Martina, Elena, Valentina, Federica'),
  surnames: list(
    'Rossi, Russo, Ferrari, Esposito, Bianchi, Romano, Colombo, Ricci, Marino, Greco, Bruno, Conti, De Luca',
  ),
};
const spanish: NamePool = {
  male: list('Hugo, Martín, Pablo, Alejandro, Daniel, Javier, Sergio, Álvaro, Diego, Adrián, Jordi, Iker'),
  female: list('Lucía, María, Paula, Sofía, Carmen, Laura, Marta, Elena, Irene, Nerea, Montserrat, Ainhoa'),
  surnames: list(
    'García, Fernández, González, Rodríguez, López, Martínez, Sánchez, Pérez, Gómez, Martín, Jiménez, Ruiz, Puig',
  ),
};
const portuguese: NamePool = {
  male: list('João, Rodrigo, Tiago, Miguel, Duarte, Rui, Pedro, Gonçalo, Francisco, Afonso'),
  female: list('Maria, Beatriz, Inês, Leonor, Matilde, Catarina, Ana, Mariana, Carolina, Joana'),
  surnames: list('Silva, Santos, Ferreira, Pereira, Oliveira, Costa, Rodrigues, Martins, Sousa, Fernandes'),
};
const swedish: NamePool = {
  male: list('Erik, Lars, Anders, Johan, Oskar, William, Karl, Nils, Axel, Gustav'),
  female: list('Anna, Elsa, Maja, Ingrid, Astrid, Linnea, Karin, Sara, Ebba, Frida'),
  surnames: list('Andersson, Johansson, Karlsson, Nilsson, Eriksson, Larsson, Olsson, Persson, Svensson, Lindqvist'),
};
const norwegian: NamePool = {
  male: list('Jakob, Emil, Magnus, Henrik, Ole, Sindre, Torbjørn, Eirik, Håkon, Sander'),
  female: list('Nora, Ingrid, Emma, Sofie, Ida, Kari, Solveig, Ragnhild, Maren, Thea'),
  surnames: list('Hansen, Johansen, Olsen, Larsen, Andersen, Pedersen, Nilsen, Kristiansen, Berg, Haugen'),
};
const danish: NamePool = {
  male: list('Mikkel, Rasmus, Frederik, Mads, Søren, Christian, Jens, Anders, Magnus, Oliver'),
  female: list('Freja, Ida, Mette, Signe, Louise, Camilla, Sofie, Line, Astrid, Julie'),
  surnames: list('Nielsen, Jensen, Hansen, Pedersen, Andersen, Christensen, Larsen, Sørensen, Rasmussen, Jørgensen'),
};
const finnish: NamePool = {
  male: list('Mikko, Juha, Antti, Jukka, Ville, Eero, Lauri, Onni, Teemu, Aleksi'),
  female: list('Aino, Eveliina, Sanna, Laura, Helmi, Kaisa, Riikka, Hanna, Johanna, Elina'),
  surnames: list('Korhonen, Virtanen, Mäkinen, Nieminen, Mäkelä, Hämäläinen, Laine, Heikkinen, Koskinen, Järvinen'),
};
const polish: NamePool = {
  male: list('Jakub, Piotr, Krzysztof, Tomasz, Paweł, Michał, Kacper, Łukasz, Marcin, Wojciech'),
  female: list('Anna, Katarzyna, Magdalena, Agnieszka, Zofia, Małgorzata, Julia, Aleksandra, Joanna, Natalia'),
  surnames: list(
    'Nowak, Kowalski, Wiśniewski, Wójcik, Kowalczyk, Kamiński, Lewandowski, Zieliński, Szymański, Woźniak',
  ),
  femaleSurnames: list(
    'Nowak, Kowalska, Wiśniewska, Wójcik, Kowalczyk, Kamińska, Lewandowska, Zielińska, Szymańska, Woźniak',
  ),
};
const czech: NamePool = {
  male: list('Jan, Petr, Tomáš, Jakub, Martin, Lukáš, Ondřej, Vojtěch, Jiří, Pavel'),
  female: list('Jana, Tereza, Eliška, Kateřina, Lucie, Veronika, Markéta, Barbora, Petra, Klára'),
  surnames: list('Novák, Svoboda, Novotný, Dvořák, Černý, Procházka, Kučera, Veselý, Horák, Němec'),
  femaleSurnames: list(
    'Nováková, Svobodová, Novotná, Dvořáková, Černá, Procházková, Kučerová, Veselá, Horáková, Němcová',
  ),
};
const greek: NamePool = {
  male: list('Giorgos, Dimitris, Konstantinos, Nikos, Yannis, Christos, Panagiotis, Vasilis, Stavros, Kostas'),
  female: list('Maria, Eleni, Katerina, Sofia, Despina, Georgia, Ioanna, Anastasia, Vasiliki, Dimitra'),
  surnames: list(
    'Papadopoulos, Georgiou, Nikolaidis, Papadakis, Vlachos, Oikonomou, Karagiannis, Makris, Pappas, Angelopoulos',
  ),
  femaleSurnames: list(
    'Papadopoulou, Georgiou, Nikolaidou, Papadaki, Vlachou, Oikonomou, Karagianni, Makri, Pappa, Angelopoulou',
  ),
};
const hungarian: NamePool = {
  male: list('Bence, Máté, Levente, Dávid, Balázs, Gábor, Zoltán, László, Péter, Ádám'),
  female: list('Hanna, Anna, Zsófia, Réka, Eszter, Katalin, Ildikó, Boglárka, Judit, Noémi'),
  surnames: list('Nagy, Kovács, Tóth, Szabó, Horváth, Varga, Kiss, Molnár, Németh, Farkas'),
};
const romanian: NamePool = {
  male: list('Andrei, Alexandru, Mihai, Ionuț, Cristian, Bogdan, Gabriel, Vlad, Radu, Adrian'),
  female: list('Ioana, Elena, Maria, Andreea, Alexandra, Cristina, Gabriela, Bianca, Raluca, Mihaela'),
  surnames: list('Popescu, Popa, Pop, Radu, Dumitru, Stoica, Stan, Gheorghe, Munteanu, Constantin'),
};
const japanese: NamePool = {
  male: list('Haruto, Sota, Yuto, Hiroshi, Takashi, Kenji, Daiki, Ren, Kazuki, Shota'),
  female: list('Yui, Hina, Sakura, Aoi, Yuki, Haruka, Misaki, Naomi, Emi, Keiko'),
  surnames: list(
    'Sato, Suzuki, Takahashi, Tanaka, Watanabe, Ito, Yamamoto, Nakamura, Kobayashi, Kato, Yoshida, Yamada',
  ),
};
const korean: NamePool = {
  male: list('Min-jun, Seo-jun, Ji-ho, Hyun-woo, Jae-won, Dong-hyun, Sung-min, Joon-young, Tae-yang, Woo-jin'),
  female: list('Seo-yeon, Ji-woo, Ha-eun, Soo-min, Ye-jin, Min-ji, Eun-ji, Hye-jin, Da-eun, Yu-na'),
  surnames: list('Kim, Lee, Park, Choi, Jung, Kang, Cho, Yoon, Jang, Lim, Han, Shin'),
};
const taiwanese: NamePool = {
  male: list('Chia-Hao, Chih-Ming, Yu-Cheng, Chun-Hung, Wei-Lun, Po-Han, Tsung-Han, Chien-Hung, Cheng-En'),
  female: list('Shu-Fen, Mei-Ling, Ya-Ting, Yi-Chun, Hsin-Yi, Pei-Shan, Chia-Hui, Yu-Ting, Hui-Wen'),
  surnames: list('Chen, Lin, Huang, Chang, Lee, Wang, Wu, Liu, Tsai, Yang, Hsu, Cheng'),
};
const hongKong: NamePool = {
  male: list('Kelvin, Jason, Raymond, Ka Ho, Chun Kit, Wing Hong, Tsz Hin, Alan, Man Kit, Eric'),
  female: list('Wing Yan, Ka Yan, Mei Ling, Winnie, Cherry, Hoi Yan, Vivian, Tsz Ching, Karen, Suet Ying'),
  surnames: list('Chan, Wong, Lee, Cheung, Lau, Ng, Leung, Chow, Tsang, Ho, Yip, Lam'),
};
const singaporean: NamePool = {
  male: list('Wei Jie, Jun Hao, Muhammad Faris, Arjun, Ryan, Zhi Hao, Hafiz, Marcus, Darren, Irfan'),
  female: list('Hui Min, Xin Yi, Nur Aisyah, Priya, Shu Ting, Siti Nurhaliza, Rachel, Jia Hui, Kavitha, Amanda'),
  surnames: list('Tan, Lim, Lee, Ng, Ong, Wong, Goh, Chua, Abdullah, Rahman, Nair, Pillai'),
};
const hebrew: NamePool = {
  male: list('Noam, Itai, Yosef, Ariel, Eitan, Omer, Daniel, Avi, Yonatan, Ido'),
  female: list('Noa, Tamar, Yael, Shira, Maya, Michal, Adi, Rivka, Hila, Talia'),
  surnames: list('Cohen, Levi, Mizrahi, Peretz, Biton, Dahan, Avraham, Friedman, Katz, Azoulay'),
};
const emirati: NamePool = {
  male: list('Mohammed, Ahmed, Khalid, Omar, Saeed, Rashid, Hamdan, Sultan, Abdullah, Majid'),
  female: list('Fatima, Mariam, Aisha, Noura, Hessa, Latifa, Shamma, Reem, Alya, Moza'),
  surnames: list(
    'Al Mansoori, Al Nuaimi, Al Hashimi, Al Suwaidi, Al Mazrouei, Al Ketbi, Al Shamsi, Al Dhaheri, Al Falasi, Al Kaabi',
  ),
};
const latin: NamePool = {
  male: list('Santiago, Mateo, Sebastián, Diego, José Luis, Juan Carlos, Emiliano, Joaquín, Tomás, Benjamín'),
  female: list('Valentina, Camila, Ximena, Fernanda, Guadalupe, Isabella, Renata, Florencia, Catalina, Agustina'),
  surnames: list(
    'Hernández, García, Martínez, López, González, Rodríguez, Pérez, Sánchez, Ramírez, Flores, Muñoz, Rojas, Díaz, Fernández',
  ),
};
const brazilian: NamePool = {
  male: list('Gabriel, Lucas, Matheus, Rafael, Guilherme, Felipe, Thiago, Bruno, Vinícius, Leonardo'),
  female: list('Ana Clara, Júlia, Larissa, Beatriz, Camila, Fernanda, Letícia, Gabriela, Isabela, Juliana'),
  surnames: list('Silva, Santos, Oliveira, Souza, Lima, Pereira, Carvalho, Almeida, Ferreira, Ribeiro, Rocha, Barbosa'),
};
const filipino: NamePool = {
  male: list('Jose, Mark Anthony, John Paul, Rommel, Jericho, Carlo, Miguel, Renato, Paolo, Joshua'),
  female: list('Maria Cristina, Angelica, Kristine, Jasmine, Rowena, Maricel, Lourdes, Princess, Mary Joy, Bea'),
  surnames: list(
    'Santos, Reyes, Cruz, Bautista, Ocampo, Garcia, Mendoza, Dela Cruz, Villanueva, Ramos, Aquino, Castillo',
  ),
};
const thai: NamePool = {
  male: list('Somchai, Anan, Kittisak, Thanawat, Nattapong, Prasert, Wichai, Chaiwat, Arthit, Pichit'),
  female: list('Siriporn, Malee, Kanya, Nattaya, Pimchanok, Supaporn, Ratana, Waraporn, Ploy, Kanokwan'),
  surnames: list('Saetang, Srisuk, Wongsawat, Chaiyaporn, Boonmee, Phromma, Kaewmanee, Thongchai, Sukprasert, Jaidee'),
};
const moroccan: NamePool = {
  male: list('Youssef, Mehdi, Hamza, Amine, Karim, Rachid, Said, Anas, Othmane, Reda'),
  female: list('Salma, Imane, Khadija, Fatima Zahra, Nadia, Meryem, Houda, Samira, Zineb, Loubna'),
  surnames: list('El Amrani, Benali, Alaoui, Bennani, Tazi, El Idrissi, Berrada, Chraibi, Lahlou, Ouazzani'),
};
const indian: NamePool = {
  male: list('Aarav, Rohan, Arjun, Vikram, Rahul, Siddharth, Karthik, Amit, Sanjay, Rajesh, Harpreet'),
  female: list('Priya, Ananya, Kavya, Neha, Pooja, Divya, Sneha, Aishwarya, Lakshmi, Meera, Simran'),
  surnames: list('Sharma, Patel, Singh, Kumar, Gupta, Reddy, Iyer, Nair, Mehta, Desai, Joshi, Rao, Gill'),
};
const mandarin: NamePool = {
  male: list('Wei, Jun, Hao, Lei, Yang, Jie, Tao, Ming, Zhiwei, Haoran'),
  female: list('Fang, Li, Na, Xiuying, Jing, Mei, Yan, Xinyi, Yuting, Lin'),
  surnames: list('Wang, Li, Zhang, Liu, Chen, Yang, Huang, Zhao, Wu, Zhou, Xu, Sun'),
};
const nigerian: NamePool = {
  male: list('Chinedu, Oluwaseun, Emeka, Tunde, Ibrahim, Chukwuemeka, Segun, Babajide, Obinna, Musa'),
  female: list('Ngozi, Funmilayo, Chioma, Aisha, Adaeze, Folake, Blessing, Yetunde, Amaka, Zainab'),
  surnames: list('Okafor, Adeyemi, Okonkwo, Bello, Eze, Adebayo, Nwosu, Ogunleye, Abubakar, Obi'),
};

const GLOBAL_MAIL = list('gmail.com, gmail.com, gmail.com, outlook.com, hotmail.com, yahoo.com, icloud.com');
/** The big international providers plus the country's own. */
const mail = (local: string): string[] => [...GLOBAL_MAIL, ...(local ? list(local) : [])];

export const COUNTRIES: readonly Country[] = [
  {
    name: 'United Kingdom',
    iso3: 'GBR',
    dial: '44',
    timezone: 'Europe/London',
    weight: 16,
    names: british,
    cities: [
      ['London', 'England', 'SW# #@@'],
      ['London', 'England', 'N## #@@'],
      ['Manchester', 'England', 'M## #@@'],
      ['Birmingham', 'England', 'B## #@@'],
      ['Leeds', 'England', 'LS# #@@'],
      ['Bristol', 'England', 'BS# #@@'],
      ['Liverpool', 'England', 'L## #@@'],
      ['Glasgow', 'Scotland', 'G## #@@'],
      ['Edinburgh', 'Scotland', 'EH# #@@'],
      ['Cardiff', 'Wales', 'CF## #@@'],
      ['Belfast', 'Northern Ireland', 'BT# #@@'],
      ['Brighton', 'England', 'BN# #@@'],
    ],
    streets: list(
      'High Street, Station Road, Church Lane, Victoria Road, Park Avenue, Queen Street, Mill Lane, The Green, Manor Road, Kings Road',
    ),
    phones: list('7#########'),
    passport: '#########',
    mailDomains: mail('yahoo.co.uk, btinternet.com, sky.com'),
    companySuffix: 'Ltd',
    french: 0.01,
  },
  {
    name: 'Ireland',
    iso3: 'IRL',
    dial: '353',
    timezone: 'Europe/Dublin',
    weight: 2,
    names: irish,
    cities: [
      ['Dublin', 'Leinster', 'D## @*##'],
      ['Cork', 'Munster', 'T## @*##'],
      ['Galway', 'Connacht', 'H## @*##'],
      ['Limerick', 'Munster', 'V## @*##'],
    ],
    streets: list("Main Street, O'Connell Street, Grafton Street, Church Road, Strand Road, Bridge Street"),
    phones: list('8########'),
    passport: '@@#######',
    mailDomains: mail('eircom.net'),
    companySuffix: 'Ltd',
    french: 0.01,
  },
  {
    name: 'Australia',
    iso3: 'AUS',
    dial: '61',
    timezone: 'Australia/Sydney',
    weight: 7,
    names: australian,
    cities: [
      ['Sydney', 'New South Wales', '20##'],
      ['Melbourne', 'Victoria', '30##'],
      ['Brisbane', 'Queensland', '40##'],
      ['Perth', 'Western Australia', '60##'],
      ['Adelaide', 'South Australia', '50##'],
      ['Hobart', 'Tasmania', '70##'],
      ['Canberra', 'Australian Capital Territory', '26##'],
    ],
    streets: list('George Street, Collins Street, Beach Road, Bay Street, Railway Parade, Queen Street, Ocean Drive'),
    phones: list('4########'),
    passport: 'P@#######',
    mailDomains: mail('bigpond.com, optusnet.com.au'),
    companySuffix: 'Pty Ltd',
    french: 0.01,
  },
  {
    name: 'New Zealand',
    iso3: 'NZL',
    dial: '64',
    timezone: 'Pacific/Auckland',
    weight: 2,
    names: kiwi,
    cities: [
      ['Auckland', 'Auckland', '10##'],
      ['Wellington', 'Wellington', '60##'],
      ['Christchurch', 'Canterbury', '80##'],
      ['Hamilton', 'Waikato', '32##'],
      ['Dunedin', 'Otago', '90##'],
    ],
    streets: list('Queen Street, Lambton Quay, Ponsonby Road, Colombo Street, Victoria Street, Tui Crescent'),
    phones: list('21#######, 27#######'),
    passport: '@@######',
    mailDomains: mail('xtra.co.nz'),
    companySuffix: 'Limited',
    french: 0.01,
  },
  {
    name: 'France',
    iso3: 'FRA',
    dial: '33',
    timezone: 'Europe/Paris',
    weight: 8,
    names: french,
    cities: [
      ['Paris', 'Île-de-France', '750##'],
      ['Lyon', 'Auvergne-Rhône-Alpes', '6900#'],
      ['Marseille', "Provence-Alpes-Côte d'Azur", '130##'],
      ['Toulouse', 'Occitanie', '310##'],
      ['Bordeaux', 'Nouvelle-Aquitaine', '330##'],
      ['Lille', 'Hauts-de-France', '590##'],
      ['Nantes', 'Pays de la Loire', '440##'],
      ['Strasbourg', 'Grand Est', '670##'],
      ['Rennes', 'Bretagne', '350##'],
    ],
    streets: list(
      'Rue de la République, Avenue Victor Hugo, Rue du Moulin, Boulevard Voltaire, Rue de la Paix, Place de la Mairie, Rue Pasteur, Avenue Jean Jaurès',
    ),
    phones: list('6########, 7########'),
    passport: '##@@#####',
    mailDomains: mail('orange.fr, free.fr, laposte.net, sfr.fr'),
    companySuffix: 'SARL',
    french: 0.92,
  },
  {
    name: 'Belgium',
    iso3: 'BEL',
    dial: '32',
    timezone: 'Europe/Brussels',
    weight: 2,
    names: belgian,
    cities: [
      ['Brussels', 'Brussels-Capital', '10##'],
      ['Antwerp', 'Flanders', '20##'],
      ['Ghent', 'Flanders', '90##'],
      ['Liège', 'Wallonia', '40##'],
      ['Namur', 'Wallonia', '50##'],
    ],
    streets: list('Rue Neuve, Kerkstraat, Meir, Avenue Louise, Stationsstraat, Rue de la Station'),
    phones: list('47#######, 48#######'),
    passport: '@@######',
    mailDomains: mail('telenet.be, skynet.be'),
    companySuffix: 'BV',
    french: 0.45,
  },
  {
    name: 'Switzerland',
    iso3: 'CHE',
    dial: '41',
    timezone: 'Europe/Zurich',
    weight: 2,
    names: swiss,
    cities: [
      ['Zürich', 'Zürich', '80##'],
      ['Geneva', 'Geneva', '12##'],
      ['Basel', 'Basel-Stadt', '40##'],
      ['Bern', 'Bern', '30##'],
      ['Lausanne', 'Vaud', '10##'],
    ],
    streets: list('Bahnhofstrasse, Rue du Rhône, Hauptstrasse, Dorfstrasse, Avenue de la Gare, Seestrasse'),
    phones: list('7########'),
    passport: '@#######',
    mailDomains: mail('bluewin.ch, gmx.ch'),
    companySuffix: 'AG',
    french: 0.25,
  },
  {
    name: 'Germany',
    iso3: 'DEU',
    dial: '49',
    timezone: 'Europe/Berlin',
    weight: 8,
    names: german,
    cities: [
      ['Berlin', 'Berlin', '10###'],
      ['Hamburg', 'Hamburg', '20###'],
      ['Munich', 'Bavaria', '80###'],
      ['Cologne', 'North Rhine-Westphalia', '50###'],
      ['Frankfurt am Main', 'Hesse', '60###'],
      ['Stuttgart', 'Baden-Württemberg', '70###'],
      ['Düsseldorf', 'North Rhine-Westphalia', '40###'],
      ['Leipzig', 'Saxony', '04###'],
      ['Dresden', 'Saxony', '01###'],
    ],
    streets: list(
      'Hauptstraße, Schulstraße, Gartenstraße, Bahnhofstraße, Dorfstraße, Bergstraße, Lindenstraße, Goethestraße',
    ),
    phones: list('15#########, 17#########, 16########'),
    passport: 'C********',
    mailDomains: mail('web.de, gmx.de, t-online.de'),
    companySuffix: 'GmbH',
    french: 0.01,
  },
  {
    name: 'Austria',
    iso3: 'AUT',
    dial: '43',
    timezone: 'Europe/Vienna',
    weight: 1.5,
    names: austrian,
    cities: [
      ['Vienna', 'Vienna', '1###'],
      ['Graz', 'Styria', '80##'],
      ['Linz', 'Upper Austria', '40##'],
      ['Salzburg', 'Salzburg', '50##'],
      ['Innsbruck', 'Tyrol', '60##'],
    ],
    streets: list('Mariahilfer Straße, Hauptplatz, Landstraße, Kirchengasse, Bahnhofstraße, Getreidegasse'),
    phones: list('664#######, 676#######'),
    passport: 'P#######',
    mailDomains: mail('gmx.at, aon.at'),
    companySuffix: 'GmbH',
    french: 0.01,
  },
  {
    name: 'Netherlands',
    iso3: 'NLD',
    dial: '31',
    timezone: 'Europe/Amsterdam',
    weight: 3,
    names: dutch,
    cities: [
      ['Amsterdam', 'North Holland', '10## @@'],
      ['Rotterdam', 'South Holland', '30## @@'],
      ['The Hague', 'South Holland', '25## @@'],
      ['Utrecht', 'Utrecht', '35## @@'],
      ['Eindhoven', 'North Brabant', '56## @@'],
      ['Groningen', 'Groningen', '97## @@'],
    ],
    streets: list('Kerkstraat, Dorpsstraat, Stationsweg, Molenweg, Prinsengracht, Julianalaan, Schoolstraat'),
    phones: list('6########'),
    passport: '@@*******',
    mailDomains: mail('ziggo.nl, kpnmail.nl'),
    companySuffix: 'B.V.',
    french: 0.01,
  },
  {
    name: 'Italy',
    iso3: 'ITA',
    dial: '39',
    timezone: 'Europe/Rome',
    weight: 4,
    names: italian,
    cities: [
      ['Rome', 'Lazio', '001##'],
      ['Milan', 'Lombardy', '201##'],
      ['Naples', 'Campania', '801##'],
      ['Turin', 'Piedmont', '101##'],
      ['Bologna', 'Emilia-Romagna', '401##'],
      ['Florence', 'Tuscany', '501##'],
      ['Palermo', 'Sicily', '901##'],
    ],
    streets: list(
      'Via Roma, Via Garibaldi, Via Mazzini, Corso Vittorio Emanuele, Via Dante, Piazza del Duomo, Via Verdi',
    ),
    phones: list('3#########'),
    passport: '@@#######',
    mailDomains: mail('libero.it, virgilio.it, tiscali.it'),
    companySuffix: 'S.r.l.',
    french: 0.01,
  },
  {
    name: 'Spain',
    iso3: 'ESP',
    dial: '34',
    timezone: 'Europe/Madrid',
    weight: 4,
    names: spanish,
    cities: [
      ['Madrid', 'Community of Madrid', '280##'],
      ['Barcelona', 'Catalonia', '080##'],
      ['Valencia', 'Valencian Community', '460##'],
      ['Seville', 'Andalusia', '410##'],
      ['Bilbao', 'Basque Country', '480##'],
      ['Málaga', 'Andalusia', '290##'],
      ['Zaragoza', 'Aragon', '500##'],
    ],
    streets: list(
      'Calle Mayor, Gran Vía, Calle Real, Avenida de la Constitución, Plaza de España, Calle del Sol, Paseo de Gracia',
    ),
    phones: list('6########'),
    passport: '@@@######',
    mailDomains: mail('telefonica.net, yahoo.es'),
    companySuffix: 'S.L.',
    french: 0.01,
  },
  {
    name: 'Portugal',
    iso3: 'PRT',
    dial: '351',
    timezone: 'Europe/Lisbon',
    weight: 1.5,
    names: portuguese,
    cities: [
      ['Lisbon', 'Lisbon', '1###-###'],
      ['Porto', 'Porto', '4###-###'],
      ['Braga', 'Braga', '47##-###'],
      ['Coimbra', 'Coimbra', '30##-###'],
      ['Faro', 'Faro', '80##-###'],
    ],
    streets: list('Rua Augusta, Avenida da Liberdade, Rua de Santa Catarina, Rua do Comércio, Largo do Carmo'),
    phones: list('9########'),
    passport: 'C@######',
    mailDomains: mail('sapo.pt'),
    companySuffix: 'Lda.',
    french: 0.02,
  },
  {
    name: 'Sweden',
    iso3: 'SWE',
    dial: '46',
    timezone: 'Europe/Stockholm',
    weight: 1.5,
    names: swedish,
    cities: [
      ['Stockholm', 'Stockholm County', '11# ##'],
      ['Gothenburg', 'Västra Götaland', '41# ##'],
      ['Malmö', 'Skåne', '21# ##'],
      ['Uppsala', 'Uppsala County', '75# ##'],
    ],
    streets: list('Storgatan, Drottninggatan, Kungsgatan, Skolgatan, Kyrkogatan, Järnvägsgatan'),
    phones: list('7########'),
    passport: '########',
    mailDomains: mail('telia.com'),
    companySuffix: 'AB',
    french: 0.01,
  },
  {
    name: 'Norway',
    iso3: 'NOR',
    dial: '47',
    timezone: 'Europe/Oslo',
    weight: 1,
    names: norwegian,
    cities: [
      ['Oslo', 'Oslo', '0###'],
      ['Bergen', 'Vestland', '50##'],
      ['Trondheim', 'Trøndelag', '70##'],
      ['Stavanger', 'Rogaland', '40##'],
    ],
    streets: list('Storgata, Kirkegata, Karl Johans gate, Strandgata, Skolegata'),
    phones: list('4#######, 9#######'),
    passport: '@@#######',
    mailDomains: mail('online.no'),
    companySuffix: 'AS',
    french: 0.01,
  },
  {
    name: 'Denmark',
    iso3: 'DNK',
    dial: '45',
    timezone: 'Europe/Copenhagen',
    weight: 1,
    names: danish,
    cities: [
      ['Copenhagen', 'Capital Region', '1###'],
      ['Aarhus', 'Central Denmark', '8000'],
      ['Odense', 'Southern Denmark', '5000'],
      ['Aalborg', 'North Denmark', '9000'],
    ],
    streets: list('Vestergade, Østergade, Nørregade, Strøget, Skolevej, Kirkevej'),
    phones: list('2#######, 3#######'),
    passport: '#########',
    mailDomains: mail('mail.dk'),
    companySuffix: 'ApS',
    french: 0.01,
  },
  {
    name: 'Finland',
    iso3: 'FIN',
    dial: '358',
    timezone: 'Europe/Helsinki',
    weight: 1,
    names: finnish,
    cities: [
      ['Helsinki', 'Uusimaa', '00###'],
      ['Espoo', 'Uusimaa', '02###'],
      ['Tampere', 'Pirkanmaa', '33###'],
      ['Turku', 'Southwest Finland', '20###'],
      ['Oulu', 'North Ostrobothnia', '90###'],
    ],
    streets: list('Mannerheimintie, Hämeenkatu, Kauppakatu, Koulukatu, Rantatie, Puistokatu'),
    phones: list('40#######, 50#######'),
    passport: 'FP#######',
    mailDomains: mail('elisanet.fi'),
    companySuffix: 'Oy',
    french: 0.01,
  },
  {
    name: 'Poland',
    iso3: 'POL',
    dial: '48',
    timezone: 'Europe/Warsaw',
    weight: 2,
    names: polish,
    cities: [
      ['Warsaw', 'Masovian', '0#-###'],
      ['Kraków', 'Lesser Poland', '3#-###'],
      ['Wrocław', 'Lower Silesian', '5#-###'],
      ['Gdańsk', 'Pomeranian', '80-###'],
      ['Poznań', 'Greater Poland', '6#-###'],
      ['Łódź', 'Łódź', '9#-###'],
    ],
    streets: list('ul. Marszałkowska, ul. Długa, ul. Kościuszki, ul. Mickiewicza, ul. Słowackiego, ul. Polna'),
    phones: list('5########, 6########, 7########'),
    passport: '@@#######',
    mailDomains: mail('wp.pl, onet.pl, o2.pl'),
    companySuffix: 'Sp. z o.o.',
    french: 0.01,
  },
  {
    name: 'Czech Republic',
    iso3: 'CZE',
    dial: '420',
    timezone: 'Europe/Prague',
    weight: 1,
    names: czech,
    cities: [
      ['Prague', 'Prague', '1## ##'],
      ['Brno', 'South Moravian', '6## ##'],
      ['Ostrava', 'Moravian-Silesian', '7## ##'],
      ['Plzeň', 'Plzeň', '3## ##'],
    ],
    streets: list('Národní, Vodičkova, Husova, Masarykova, Nádražní, Školní'),
    phones: list('6########, 7########'),
    passport: '########',
    mailDomains: mail('seznam.cz, email.cz'),
    companySuffix: 's.r.o.',
    french: 0.01,
  },
  {
    name: 'Greece',
    iso3: 'GRC',
    dial: '30',
    timezone: 'Europe/Athens',
    weight: 1,
    names: greek,
    cities: [
      ['Athens', 'Attica', '1## ##'],
      ['Thessaloniki', 'Central Macedonia', '5## ##'],
      ['Patras', 'Western Greece', '26# ##'],
      ['Heraklion', 'Crete', '71# ##'],
    ],
    streets: list('Odos Ermou, Leoforos Syngrou, Odos Athinas, Odos Tsimiski, Leoforos Kifisias'),
    phones: list('69########'),
    passport: '@@#######',
    mailDomains: mail('otenet.gr'),
    companySuffix: 'S.A.',
    french: 0.02,
  },
  {
    name: 'Hungary',
    iso3: 'HUN',
    dial: '36',
    timezone: 'Europe/Budapest',
    weight: 1,
    names: hungarian,
    cities: [
      ['Budapest', 'Budapest', '1###'],
      ['Debrecen', 'Hajdú-Bihar', '40##'],
      ['Szeged', 'Csongrád-Csanád', '67##'],
      ['Pécs', 'Baranya', '76##'],
    ],
    streets: list('Andrássy út, Kossuth Lajos utca, Petőfi utca, Rákóczi út, Fő utca, Széchenyi utca'),
    phones: list('20#######, 30#######, 70#######'),
    passport: '@@#######',
    mailDomains: mail('freemail.hu, citromail.hu'),
    companySuffix: 'Kft.',
    french: 0.01,
  },
  {
    name: 'Romania',
    iso3: 'ROU',
    dial: '40',
    timezone: 'Europe/Bucharest',
    weight: 1.5,
    names: romanian,
    cities: [
      ['Bucharest', 'Bucharest', '0#####'],
      ['Cluj-Napoca', 'Cluj', '400###'],
      ['Timișoara', 'Timiș', '300###'],
      ['Iași', 'Iași', '700###'],
      ['Constanța', 'Constanța', '900###'],
    ],
    streets: list('Strada Victoriei, Bulevardul Unirii, Strada Republicii, Strada Mihai Eminescu, Strada Florilor'),
    phones: list('7########'),
    passport: '#########',
    mailDomains: mail('yahoo.ro'),
    companySuffix: 'S.R.L.',
    french: 0.04,
  },
  {
    name: 'Japan',
    iso3: 'JPN',
    dial: '81',
    timezone: 'Asia/Tokyo',
    weight: 4,
    names: japanese,
    cities: [
      ['Tokyo', 'Tokyo', '1##-####'],
      ['Osaka', 'Osaka', '5##-####'],
      ['Yokohama', 'Kanagawa', '2##-####'],
      ['Nagoya', 'Aichi', '4##-####'],
      ['Sapporo', 'Hokkaido', '06#-####'],
      ['Fukuoka', 'Fukuoka', '81#-####'],
      ['Kyoto', 'Kyoto', '60#-####'],
    ],
    streets: list('Chuo-dori, Meiji-dori, Omotesando, Sakura-machi, Midori-cho, Honmachi'),
    phones: list('90########, 80########, 70########'),
    passport: '@@#######',
    mailDomains: mail('yahoo.co.jp, docomo.ne.jp, ezweb.ne.jp'),
    companySuffix: 'K.K.',
    french: 0.01,
  },
  {
    name: 'South Korea',
    iso3: 'KOR',
    dial: '82',
    timezone: 'Asia/Seoul',
    weight: 4,
    names: korean,
    cities: [
      ['Seoul', 'Seoul', '0####'],
      ['Busan', 'Busan', '4####'],
      ['Incheon', 'Incheon', '2####'],
      ['Daegu', 'Daegu', '4####'],
      ['Daejeon', 'Daejeon', '3####'],
    ],
    streets: list('Gangnam-daero, Teheran-ro, Sejong-daero, Haeundae-ro, Jongno, Olympic-ro'),
    phones: list('10########'),
    passport: 'M########',
    mailDomains: mail('naver.com, daum.net, kakao.com'),
    companySuffix: 'Co., Ltd.',
    french: 0.01,
  },
  {
    name: 'Taiwan',
    iso3: 'TWN',
    dial: '886',
    timezone: 'Asia/Taipei',
    weight: 2,
    names: taiwanese,
    cities: [
      ['Taipei', 'Taipei', '1##'],
      ['Kaohsiung', 'Kaohsiung', '8##'],
      ['Taichung', 'Taichung', '4##'],
      ['Tainan', 'Tainan', '7##'],
      ['Hsinchu', 'Hsinchu', '300'],
    ],
    streets: list("Zhongxiao East Road, Ren'ai Road, Zhongshan North Road, Minsheng Road, Heping East Road"),
    phones: list('9########'),
    passport: '3########',
    mailDomains: mail('yahoo.com.tw, hinet.net'),
    companySuffix: 'Co., Ltd.',
    french: 0.01,
  },
  {
    name: 'Hong Kong',
    iso3: 'HKG',
    dial: '852',
    timezone: 'Asia/Hong_Kong',
    weight: 1.5,
    names: hongKong,
    cities: [
      ['Hong Kong', 'Hong Kong Island', ''],
      ['Kowloon', 'Kowloon', ''],
      ['Sha Tin', 'New Territories', ''],
      ['Tsuen Wan', 'New Territories', ''],
    ],
    streets: list("Nathan Road, Queen's Road Central, Hennessy Road, Des Voeux Road, Castle Peak Road"),
    phones: list('9#######, 6#######, 5#######'),
    passport: 'K########',
    mailDomains: mail('netvigator.com'),
    companySuffix: 'Limited',
    french: 0.01,
  },
  {
    name: 'Singapore',
    iso3: 'SGP',
    dial: '65',
    timezone: 'Asia/Singapore',
    weight: 1.5,
    names: singaporean,
    cities: [
      ['Singapore', 'Central Region', '0#####'],
      ['Singapore', 'East Region', '4#####'],
      ['Singapore', 'West Region', '6#####'],
      ['Singapore', 'North Region', '7#####'],
    ],
    streets: list('Orchard Road, Tampines Avenue, Jurong West Street, Ang Mo Kio Avenue, Bukit Timah Road'),
    phones: list('9#######, 8#######'),
    passport: 'K#######@',
    mailDomains: mail('singnet.com.sg'),
    companySuffix: 'Pte. Ltd.',
    french: 0.01,
  },
  {
    name: 'Israel',
    iso3: 'ISR',
    dial: '972',
    timezone: 'Asia/Jerusalem',
    weight: 2,
    names: hebrew,
    cities: [
      ['Tel Aviv', 'Tel Aviv District', '6######'],
      ['Jerusalem', 'Jerusalem District', '9######'],
      ['Haifa', 'Haifa District', '3######'],
      ["Be'er Sheva", 'Southern District', '84#####'],
    ],
    streets: list('Rothschild Boulevard, Dizengoff Street, Jaffa Road, Herzl Street, Ben Yehuda Street'),
    phones: list('5########'),
    passport: '########',
    mailDomains: mail('walla.co.il'),
    companySuffix: 'Ltd.',
    french: 0.05,
  },
  {
    name: 'United Arab Emirates',
    iso3: 'ARE',
    dial: '971',
    timezone: 'Asia/Dubai',
    weight: 1,
    names: emirati,
    cities: [
      ['Dubai', 'Dubai', ''],
      ['Abu Dhabi', 'Abu Dhabi', ''],
      ['Sharjah', 'Sharjah', ''],
      ['Al Ain', 'Abu Dhabi', ''],
    ],
    streets: list('Sheikh Zayed Road, Al Wasl Road, Jumeirah Beach Road, Corniche Road, Hamdan Street'),
    phones: list('50#######, 55#######, 56#######'),
    passport: '*########',
    mailDomains: mail('eim.ae'),
    companySuffix: 'LLC',
    french: 0.01,
  },
  {
    name: 'Mexico',
    iso3: 'MEX',
    dial: '52',
    timezone: 'America/Mexico_City',
    weight: 6,
    names: latin,
    cities: [
      ['Mexico City', 'Ciudad de México', '0####'],
      ['Guadalajara', 'Jalisco', '44###'],
      ['Monterrey', 'Nuevo León', '64###'],
      ['Puebla', 'Puebla', '72###'],
      ['Cancún', 'Quintana Roo', '77###'],
      ['Mérida', 'Yucatán', '97###'],
      ['Tijuana', 'Baja California', '22###'],
    ],
    streets: list(
      'Avenida Reforma, Calle Hidalgo, Avenida Juárez, Calle Morelos, Avenida Insurgentes, Calle Benito Juárez, Calle 5 de Mayo',
    ),
    phones: list('55########, 33########, 81########'),
    passport: 'G########',
    mailDomains: mail('hotmail.com, yahoo.com.mx, prodigy.net.mx'),
    companySuffix: 'S.A. de C.V.',
    french: 0.01,
  },
  {
    name: 'Chile',
    iso3: 'CHL',
    dial: '56',
    timezone: 'America/Santiago',
    weight: 1.5,
    names: latin,
    cities: [
      ['Santiago', 'Región Metropolitana', '75#####'],
      ['Valparaíso', 'Valparaíso', '23#####'],
      ['Concepción', 'Biobío', '40#####'],
      ['Antofagasta', 'Antofagasta', '12#####'],
    ],
    streets: list("Avenida Providencia, Calle Huérfanos, Avenida Libertador Bernardo O'Higgins, Calle Merced"),
    phones: list('9########'),
    passport: '@########',
    mailDomains: mail('vtr.net'),
    companySuffix: 'SpA',
    french: 0.01,
  },
  {
    name: 'Argentina',
    iso3: 'ARG',
    dial: '54',
    timezone: 'America/Argentina/Buenos_Aires',
    weight: 1,
    names: latin,
    cities: [
      ['Buenos Aires', 'Ciudad Autónoma de Buenos Aires', 'C1###@@@'],
      ['Córdoba', 'Córdoba', 'X5###@@@'],
      ['Rosario', 'Santa Fe', 'S2###@@@'],
      ['Mendoza', 'Mendoza', 'M5###@@@'],
    ],
    streets: list('Avenida Corrientes, Avenida de Mayo, Calle Florida, Avenida Santa Fe, Calle San Martín'),
    phones: list('911########, 9351#######'),
    passport: '@@@######',
    mailDomains: mail('fibertel.com.ar'),
    companySuffix: 'S.R.L.',
    french: 0.01,
  },
  {
    name: 'Brazil',
    iso3: 'BRA',
    dial: '55',
    timezone: 'America/Sao_Paulo',
    weight: 3,
    names: brazilian,
    cities: [
      ['São Paulo', 'São Paulo', '0####-###'],
      ['Rio de Janeiro', 'Rio de Janeiro', '2####-###'],
      ['Belo Horizonte', 'Minas Gerais', '3####-###'],
      ['Curitiba', 'Paraná', '8####-###'],
      ['Porto Alegre', 'Rio Grande do Sul', '9####-###'],
      ['Salvador', 'Bahia', '4####-###'],
    ],
    streets: list(
      'Avenida Paulista, Rua Augusta, Avenida Atlântica, Rua das Flores, Rua XV de Novembro, Avenida Brasil',
    ),
    phones: list('119########, 219########, 319########'),
    passport: '@@######',
    mailDomains: mail('uol.com.br, bol.com.br, terra.com.br'),
    companySuffix: 'Ltda.',
    french: 0.01,
  },
  {
    name: 'Philippines',
    iso3: 'PHL',
    dial: '63',
    timezone: 'Asia/Manila',
    weight: 3,
    names: filipino,
    cities: [
      ['Manila', 'Metro Manila', '10##'],
      ['Quezon City', 'Metro Manila', '11##'],
      ['Cebu City', 'Cebu', '6000'],
      ['Davao City', 'Davao del Sur', '8000'],
      ['Makati', 'Metro Manila', '12##'],
    ],
    streets: list('Rizal Avenue, Mabini Street, Bonifacio Street, Ayala Avenue, Roxas Boulevard, Osmeña Boulevard'),
    phones: list('9#########'),
    passport: 'P#######@',
    mailDomains: mail('yahoo.com.ph'),
    companySuffix: 'Inc.',
    french: 0.01,
  },
  {
    name: 'Thailand',
    iso3: 'THA',
    dial: '66',
    timezone: 'Asia/Bangkok',
    weight: 1,
    names: thai,
    cities: [
      ['Bangkok', 'Bangkok', '10###'],
      ['Chiang Mai', 'Chiang Mai', '50###'],
      ['Phuket', 'Phuket', '83###'],
      ['Khon Kaen', 'Khon Kaen', '40###'],
    ],
    streets: list('Sukhumvit Road, Silom Road, Rama IV Road, Charoen Krung Road, Nimmanhaemin Road'),
    phones: list('8########, 9########'),
    passport: '@@#######',
    mailDomains: mail(''),
    companySuffix: 'Co., Ltd.',
    french: 0.01,
  },
  {
    name: 'Morocco',
    iso3: 'MAR',
    dial: '212',
    timezone: 'Africa/Casablanca',
    weight: 1,
    names: moroccan,
    cities: [
      ['Casablanca', 'Casablanca-Settat', '20###'],
      ['Rabat', 'Rabat-Salé-Kénitra', '10###'],
      ['Marrakesh', 'Marrakesh-Safi', '40###'],
      ['Tangier', 'Tanger-Tetouan-Al Hoceima', '90###'],
      ['Fès', 'Fès-Meknès', '30###'],
    ],
    streets: list('Boulevard Mohammed V, Avenue Hassan II, Rue Ibn Battouta, Boulevard Zerktouni, Avenue des FAR'),
    phones: list('6########, 7########'),
    passport: '@@#######',
    mailDomains: mail('menara.ma'),
    companySuffix: 'SARL',
    french: 0.6,
  },
  {
    name: 'India',
    iso3: 'IND',
    dial: '91',
    timezone: 'Asia/Kolkata',
    weight: 4,
    names: indian,
    cities: [
      ['Mumbai', 'Maharashtra', '400###'],
      ['New Delhi', 'Delhi', '110###'],
      ['Bengaluru', 'Karnataka', '560###'],
      ['Chennai', 'Tamil Nadu', '600###'],
      ['Hyderabad', 'Telangana', '500###'],
      ['Ahmedabad', 'Gujarat', '380###'],
      ['Chandigarh', 'Punjab', '160###'],
    ],
    streets: list('MG Road, Station Road, Nehru Nagar, Gandhi Road, Park Street, Residency Road'),
    phones: list('9#########, 8#########, 7#########'),
    passport: '@#######',
    mailDomains: mail('rediffmail.com'),
    companySuffix: 'Pvt. Ltd.',
    french: 0.01,
    usPermanentResidents: true,
  },
  {
    name: 'China',
    iso3: 'CHN',
    dial: '86',
    timezone: 'Asia/Shanghai',
    weight: 1.5,
    names: mandarin,
    cities: [
      ['Shanghai', 'Shanghai', '200###'],
      ['Beijing', 'Beijing', '100###'],
      ['Shenzhen', 'Guangdong', '518###'],
      ['Guangzhou', 'Guangdong', '510###'],
      ['Chengdu', 'Sichuan', '610###'],
    ],
    streets: list("Nanjing Road, Chang'an Avenue, Huaihai Road, Renmin Road, Zhongshan Road"),
    phones: list('13#########, 15#########, 18#########'),
    passport: 'E########',
    mailDomains: mail('qq.com, 163.com'),
    companySuffix: 'Co., Ltd.',
    french: 0.01,
    usPermanentResidents: true,
  },
  {
    name: 'Nigeria',
    iso3: 'NGA',
    dial: '234',
    timezone: 'Africa/Lagos',
    weight: 1,
    names: nigerian,
    cities: [
      ['Lagos', 'Lagos', '100###'],
      ['Abuja', 'Federal Capital Territory', '900###'],
      ['Port Harcourt', 'Rivers', '500###'],
      ['Ibadan', 'Oyo', '200###'],
    ],
    streets: list('Awolowo Road, Adeola Odeku Street, Ahmadu Bello Way, Allen Avenue, Herbert Macaulay Way'),
    phones: list('80########, 81########, 70########'),
    passport: 'A########',
    mailDomains: mail(''),
    companySuffix: 'Ltd',
    french: 0.01,
    usPermanentResidents: true,
  },
];

/** Where green-card holders live: their address, telephone and time zone are American. */
export const UNITED_STATES = {
  name: 'United States',
  dial: '1',
  cities: [
    ['New York', 'NY', '100##'],
    ['Jersey City', 'NJ', '073##'],
    ['Chicago', 'IL', '606##'],
    ['Houston', 'TX', '770##'],
    ['San Jose', 'CA', '951##'],
    ['Los Angeles', 'CA', '900##'],
    ['Seattle', 'WA', '981##'],
    ['Atlanta', 'GA', '303##'],
    ['Boston', 'MA', '021##'],
    ['Edison', 'NJ', '088##'],
  ] as readonly City[],
  timezones: {
    NY: 'America/New_York',
    NJ: 'America/New_York',
    IL: 'America/Chicago',
    TX: 'America/Chicago',
    CA: 'America/Los_Angeles',
    WA: 'America/Los_Angeles',
    GA: 'America/New_York',
    MA: 'America/New_York',
  } as Record<string, string>,
  streets: list('Main Street, Oak Avenue, Maple Drive, Washington Boulevard, Park Place, Elm Street, Lincoln Avenue'),
  phones: list(
    '212#######, 646#######, 312#######, 713#######, 408#######, 213#######, 206#######, 404#######, 617#######, 732#######',
  ),
} as const;

export const MARITAL_STATUSES = [
  ['Single', 40],
  ['Married', 42],
  ['Common-Law', 7],
  ['Divorced', 6],
  ['Legally Separated', 2],
  ['Widowed', 2],
  ['Annulled Marriage', 1],
] as const;

/** Occupation (the eTA form's categories), and job titles that fit it; null titles mean no employer. */
export const OCCUPATIONS: readonly (readonly [string, number, readonly string[] | null])[] = [
  ['Management occupations', 8, ['Operations Manager', 'Sales Director', 'Project Manager', 'General Manager']],
  [
    'Business, finance and administration occupations',
    12,
    ['Accountant', 'Office Administrator', 'Financial Analyst', 'HR Specialist', 'Executive Assistant'],
  ],
  [
    'Natural and applied sciences and related occupations',
    9,
    ['Software Developer', 'Civil Engineer', 'Data Scientist', 'Laboratory Technician', 'Architect'],
  ],
  ['Health occupations', 7, ['Registered Nurse', 'Physician', 'Pharmacist', 'Dentist', 'Physiotherapist']],
  [
    'Occupations in education, law and social, community and government services',
    8,
    ['Teacher', 'Lecturer', 'Lawyer', 'Social Worker', 'Civil Servant'],
  ],
  [
    'Occupations in art, culture, recreation and sport',
    3,
    ['Graphic Designer', 'Photographer', 'Musician', 'Journalist'],
  ],
  [
    'Sales and service occupations',
    9,
    ['Sales Associate', 'Chef', 'Hotel Receptionist', 'Customer Service Agent', 'Flight Attendant'],
  ],
  [
    'Trades, transport and equipment operators and related occupations',
    6,
    ['Electrician', 'Truck Driver', 'Plumber', 'Mechanic', 'Carpenter'],
  ],
  [
    'Natural resources, agriculture and related production occupations',
    2,
    ['Farmer', 'Forestry Technician', 'Vineyard Manager'],
  ],
  ['Occupations in manufacturing and utilities', 3, ['Production Supervisor', 'Machine Operator', 'Quality Inspector']],
  ['Student', 10, ['Student']],
  ['Retired', 9, null],
  ['Homemaker', 4, null],
  ['Unemployed', 2, null],
  ['Military/armed forces', 1, ['Officer', 'Non-commissioned Officer']],
];

export const COMPANY_WORDS = list(
  'Consulting, Logistics, Engineering, Trading, Solutions, Holdings, Design, Foods, Systems, Partners, Services, Technologies',
);

export const TRAVEL_DOCUMENTS = [
  ['Passport - ordinary/regular', 970],
  ['Passport - official', 10],
  ['Passport - diplomatic', 5],
  ['Passport - service', 5],
  ['Emergency/temporary travel document', 6],
  ['Refugee travel document', 4],
] as const;

export const REPRESENTATIVES = list('Family member, Friend, Travel agent, Immigration consultant, Employer');
export const CANADIAN_PROVINCES = list('Ontario, British Columbia, Quebec, Alberta, Manitoba, Nova Scotia');
export const REFUSING_COUNTRIES = list('Canada, United States, United Kingdom, Australia, New Zealand, Schengen area');

/** Browsers as ua-parser-js names them: [user agent, browser, os, device, device type]. */
export const USER_AGENTS: readonly (readonly [string, string, string, string, string, number])[] = [
  [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    'Chrome 131.0.0.0',
    'Windows 10',
    'Desktop',
    'desktop',
    30,
  ],
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
    'Mobile Safari 18.1',
    'iOS 18.1',
    'Apple iPhone',
    'mobile',
    22,
  ],
  [
    'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36',
    'Chrome Mobile 130.0.0.0',
    'Android 14',
    'Samsung SM-S918B',
    'mobile',
    14,
  ],
  [
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
    'Safari 18.1',
    'macOS 10.15.7',
    'Apple Macintosh',
    'desktop',
    12,
  ],
  [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
    'Edge 131.0.0.0',
    'Windows 10',
    'Desktop',
    'desktop',
    8,
  ],
  [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0',
    'Firefox 132.0',
    'Windows 10',
    'Desktop',
    'desktop',
    5,
  ],
  [
    'Mozilla/5.0 (iPad; CPU OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1',
    'Mobile Safari 17.6',
    'iOS 17.6',
    'Apple iPad',
    'tablet',
    4,
  ],
  [
    'Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/129.0.0.0 Mobile Safari/537.36',
    'Chrome Mobile 129.0.0.0',
    'Android 13',
    'Google Pixel 7',
    'mobile',
    5,
  ],
];

/** First octets of the customers' public IPv4 addresses. */
export const IP_FIRST_OCTETS = [
  24, 31, 37, 46, 62, 68, 77, 81, 86, 90, 98, 101, 103, 109, 112, 121, 151, 176, 182, 185, 188, 197, 203,
] as const;

export interface RemarkTemplate {
  text: string;
  whatsapp?: boolean;
  telephone?: boolean;
  statusRefund?: boolean;
  voided?: boolean;
  chargeback?: boolean;
  reportError?: boolean;
}

/** Notes staff write while working an order, whatever its status. */
export const PROGRESS_REMARKS: readonly RemarkTemplate[] = [
  { text: 'Application reviewed; passport details match the scan.' },
  { text: 'Checked travel dates and background answers, nothing unusual.' },
  { text: 'Customer asked about processing time by e-mail; replied with the usual 72 hours.' },
  { text: 'Called the customer to confirm the date of birth.', telephone: true },
  { text: 'Sent a WhatsApp message asking for a clearer photo of the passport page.', whatsapp: true },
  { text: 'Spelling of the surname corrected after the customer confirmed it.' },
  { text: 'Form shows the wrong passport expiry month; reported to IT.', reportError: true },
  { text: 'Payment verified with the gateway.' },
];

/** The note that explains the order's current status. */
export const STATUS_REMARKS: Record<ProcessStatus, readonly RemarkTemplate[]> = {
  New: [{ text: 'Duplicate check done: no earlier order with this passport.' }],
  Pending: [{ text: 'Picked up for processing.' }, { text: 'Working on it now; submitting to IRCC today.' }],
  Awaiting: [
    { text: 'Passport number on the form does not match the photo page; e-mailed the customer.' },
    { text: 'Waiting for the customer to answer about a previous refusal.', whatsapp: true },
  ],
  AwaitingGovt: [
    { text: 'Submitted to IRCC; waiting for the decision.' },
    { text: 'IRCC asked for additional documents; customer informed.' },
  ],
  'Customer Called': [
    { text: 'Customer called to check the status; explained the next steps.', telephone: true },
    { text: 'Spoke to the customer, approval letter explained.', telephone: true },
  ],
  'Contact Customer': [
    { text: 'No answer on the phone; left a voicemail.', telephone: true },
    { text: 'E-mail bounced. Trying WhatsApp.', whatsapp: true },
  ],
  Completed: [
    { text: 'eTA approved; approval letter sent to the customer.' },
    { text: 'Approved by IRCC, document uploaded and mailed.' },
  ],
  Refunds: [
    { text: 'Customer asked for a refund: trip cancelled.', statusRefund: true },
    { text: 'Duplicate application; refund requested.', statusRefund: true },
  ],
  'Refund Completed': [
    { text: 'Refund issued through the gateway.', statusRefund: true },
    { text: 'Transaction voided before settlement.', statusRefund: true, voided: true },
  ],
  ChargeBack: [
    { text: 'Chargeback notice received from the bank; defence pack sent.', chargeback: true },
    { text: 'Customer disputed the charge; evidence submitted.', chargeback: true },
  ],
  Deleted: [{ text: 'Duplicate order; deleted.' }, { text: 'Customer applied twice by mistake; deleted this one.' }],
};

/** A gateway's reason codes for a chargeback, as its webhooks name them, with how often each comes. */
export const DISPUTE_REASONS: Record<'Stripe' | 'PayPal', readonly (readonly [string, number])[]> = {
  Stripe: [
    ['fraudulent', 35],
    ['product_not_received', 20],
    ['unrecognized', 15],
    ['credit_not_processed', 10],
    ['duplicate', 8],
    ['product_unacceptable', 7],
    ['general', 5],
  ],
  PayPal: [
    ['UNAUTHORISED', 30],
    ['MERCHANDISE_OR_SERVICE_NOT_RECEIVED', 25],
    ['MERCHANDISE_OR_SERVICE_NOT_AS_DESCRIBED', 20],
    ['CREDIT_NOT_PROCESSED', 10],
    ['DUPLICATE_TRANSACTION', 8],
    ['OTHER', 7],
  ],
};

/** A staff note on a chargeback whose evidence was not sent (yet). */
export const DISPUTE_WAITING_REMARKS: readonly RemarkTemplate[] = [
  {
    text: 'Chargeback received; gathering the approval mail and download history for the defence pack.',
    chargeback: true,
  },
  { text: 'Chargeback received; tried to reach the customer before answering it.', chargeback: true, telephone: true },
];
